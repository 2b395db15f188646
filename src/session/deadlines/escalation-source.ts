// Escalation ladders (a card's deadline policy's `escalate`): when a rung comes and the card is still
// open, the `escalated` event records it on the card, the inbox report carries it to the person's
// inbox (which pushes, posts to chat and emails as the rung says), and the next rung is set. A rung
// only tells people: the card's deadline, and what it does, stay as they were.
import { markOf } from "../../agent/frame-mark";
import type { Notifier } from "../../notify/notifier";
import { type DeadlineSource, isDue } from "../../objects/deadline-source";
import type { SessionState } from "../session-state";

export function escalationSource(
  state: Pick<SessionState, "interactions" | "frames" | "events" | "cardDeadlines" | "atomically">,
  notifier: () => Notifier,
): DeadlineSource {
  const { cardDeadlines, interactions } = state;
  const escalations = cardDeadlines.escalations;
  return {
    name: "escalations",
    next: () => escalations.earliest(),
    fire(now) {
      if (!isDue(escalations.earliest(), now)) return undefined;
      state.atomically(() => {
        for (const { id, climbed } of escalations.due(now)) {
          const card = interactions.get(id);
          const ladder = card ? cardDeadlines.policyOf(card).policy.escalate : [];
          const rung = ladder[climbed.length];
          // A card at its deadline is not escalated: the deadline itself is due now.
          if (card?.status !== "pending" || !rung || card.deadline <= now) {
            escalations.climb(id, climbed, null);
            continue;
          }
          const after = ladder[climbed.length + 1];
          escalations.climb(id, [...climbed, now], after ? card.createdAt + after.afterMs : null);
          const mark = markOf(state, card.frameId);
          state.events.append("escalated", {
            ...rung,
            toolCallId: card.toolCallId,
            interactionId: card.id,
            kind: card.kind,
            toolName: card.toolName,
            rung: climbed.length,
            of: ladder.length,
            ...mark,
          });
          // The session's own subscribed devices (and its webhook) hear it as a reminder.
          if (rung.to === "me" && rung.notify.includes("push")) {
            notifier().remind(
              {
                toolCallId: card.toolCallId,
                interactionId: card.id,
                kind: card.kind,
                toolName: card.toolName,
                request: card.request,
                createdAt: card.createdAt,
                expiresAt: card.deadline,
                ...mark,
              },
              state.events.lastSeq,
            );
          }
        }
      });
      return undefined;
    },
  };
}
