// Cards whose deadline passed: each is resolved as its deadline policy says, and the loop resumes
// with their results — or, when a card of the turn was cancelled by its deadline, the turn stops
// as if the person had pressed Stop (an external agent's card is only cancelled: no turn runs here).
import { isExternalInteraction } from "../../agent/external-id";
import { POLICY_DECIDER, timeOutDue } from "../../agent/resolve-interaction";
import { type DeadlineSource, isDue } from "../../objects/deadline-source";
import type { SessionRuntime } from "../session-runtime";
import type { SqlInteractionStore } from "../stores/interaction-store";

export function interactionTimeoutSource(
  interactions: SqlInteractionStore,
  agent: () => SessionRuntime,
): DeadlineSource {
  return {
    name: "interaction deadlines",
    next: () => interactions.earliestDeadline(),
    fire(now, run) {
      if (!isDue(interactions.earliestDeadline(), now)) return undefined;
      const { deps, loop } = agent();
      const stopsTurn = deps.interactions
        .due(now)
        .some(
          (card) => deps.cardDeadlines?.onDeadline(card.id) === "cancelled" && !isExternalInteraction(card),
        );
      if (timeOutDue(deps, now) === 0) return undefined;
      // The turn stops as its deadline policy says: other cards of the turn close with it.
      if (stopsTurn) loop.cancel(null, "cancelled", POLICY_DECIDER);
      run.wake();
      return undefined;
    },
  };
}
