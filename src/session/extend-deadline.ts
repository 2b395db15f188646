// "Give me more time" on a card: its deadline moves later by its policy's step, up to its maximum,
// and every device folds the `interaction_extended` event (the countdown moves with it).

import type { AgentDeps } from "../agent/agent-deps";
import { markOf } from "../agent/frame-mark";
import { alreadyResolved, timeOutDue } from "../agent/resolve-interaction";
import { unknownInteraction } from "../protocol/wire/errors";
import type { CommandOutcome } from "./command-handler";
import type { SessionState } from "./session-state";
import { nextReminderAt } from "./stores/card-deadlines";

/**
 * Extends card `interactionId`. A card whose deadline has passed loses to its deadline (as a late
 * answer does) and `wake` runs the loop; one already at its maximum is refused and nothing changes.
 */
export function extendDeadline(
  state: Pick<SessionState, "interactions" | "cardDeadlines">,
  deps: AgentDeps,
  sent: { interactionId: string; deviceId: string | null; answeredBy: string | null },
  wake: () => void,
): CommandOutcome {
  const { interactionId, deviceId, answeredBy } = sent;
  const record = state.interactions.get(interactionId);
  if (!record) return unknownInteraction(interactionId);
  const now = deps.clock.now();
  if (record.status === "pending" && record.deadline <= now) {
    if (deps.atomically(() => timeOutDue(deps, now)) > 0) wake();
    return alreadyResolved(deps, state.interactions.get(interactionId) ?? record);
  }
  if (record.status !== "pending") return alreadyResolved(deps, record);
  const { policy, maxAt } = state.cardDeadlines.policyOf(record);
  const expiresAt = Math.min(record.deadline + policy.extendByMs, maxAt);
  if (expiresAt <= record.deadline) {
    return {
      ok: false,
      error: {
        code: "deadline_at_maximum",
        message: `interactionId: "${interactionId}" already waits as long as its deadline policy allows (until ${new Date(maxAt).toISOString()})`,
      },
    };
  }
  deps.atomically(() => {
    state.interactions.extend(interactionId, expiresAt);
    state.cardDeadlines.setReminder(interactionId, nextReminderAt(expiresAt, policy.remindBeforeMs, now));
    deps.events.append("interaction_extended", {
      toolCallId: record.toolCallId,
      interactionId,
      kind: record.kind,
      expiresAt,
      previousExpiresAt: record.deadline,
      extendedBy: deviceId,
      ...(answeredBy ? { answeredBy } : {}),
      ...markOf(deps, record.frameId),
    });
  });
  deps.deadlines.rearm();
  return { ok: true, result: { interactionId, expiresAt, maxExpiresAt: maxAt } };
}
