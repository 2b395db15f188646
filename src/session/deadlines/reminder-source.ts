// Reminders before a card's deadline (its policy's `remindBeforeMs`): a push and a webhook through
// the notifier, then the card's next reminder. Drained before deliveries, which send them at once.
import { markOf } from "../../agent/frame-mark";
import type { Notifier } from "../../notify/notifier";
import { type DeadlineSource, isDue } from "../../objects/deadline-source";
import type { SessionState } from "../session-state";
import { nextReminderAt } from "../stores/card-deadlines";

export function reminderSource(
  state: Pick<SessionState, "interactions" | "frames" | "events" | "cardDeadlines">,
  notifier: () => Notifier,
): DeadlineSource {
  const { cardDeadlines, interactions } = state;
  return {
    name: "reminders",
    next: () => cardDeadlines.earliestReminder(),
    fire(now) {
      if (!isDue(cardDeadlines.earliestReminder(), now)) return undefined;
      for (const { id, policy } of cardDeadlines.remindersDue(now)) {
        const card = interactions.get(id);
        // A card at its deadline gets no reminder: the deadline itself is due now.
        if (card && card.status === "pending" && card.deadline > now) {
          notifier().remind(
            {
              toolCallId: card.toolCallId,
              interactionId: card.id,
              kind: card.kind,
              toolName: card.toolName,
              request: card.request,
              createdAt: card.createdAt,
              expiresAt: card.deadline,
              ...markOf(state, card.frameId),
            },
            state.events.lastSeq,
          );
        }
        cardDeadlines.setReminder(
          id,
          card ? nextReminderAt(card.deadline, policy.remindBeforeMs, now) : null,
        );
      }
      return undefined;
    },
  };
}
