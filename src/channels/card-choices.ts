// The buttons a chat message of a card offers, and the session command each one sends. Buttons carry
// only a short choice code; what it means is read again from the card the inbox holds, through the
// kind's own chat view (src/interactions/kinds/chat-views.ts).
import type { ChatChoice, ModalField } from "../interactions/kinds/chat-view";
import { CHAT_VIEWS } from "../interactions/kinds/chat-views";
import type { SessionCommand } from "../protocol/commands";
import type { InboxCard } from "../protocol/inbox";

export type { ChatChoice };

/** The code of the "More time" button every extendable card gets. */
const MORE_TIME = "x";

/** The card's choices as buttons; empty when it must be answered in Parley (forms, several questions). */
export function choicesOf(
  card: Pick<InboxCard, "kind" | "request" | "deadlinePolicy" | "expiresAt">,
): ChatChoice[] {
  const choices = CHAT_VIEWS[card.kind]?.choices(card.request) ?? [];
  const policy = card.deadlinePolicy;
  // As on the page: offered while the deadline may still move.
  if (choices.length > 0 && policy && card.expiresAt < policy.maxExpiresAt) {
    choices.push({ code: MORE_TIME, label: "More time" });
  }
  return choices;
}

/** The request in words beyond the kind's summary line, as its chat view says it. */
export function detailOf(card: Pick<InboxCard, "kind" | "request">): string | null {
  return CHAT_VIEWS[card.kind]?.detail(card.request) ?? null;
}

/** The command a choice sends to the card's session; null for a code this card does not offer. */
export function commandFor(card: InboxCard, code: string, text?: string): SessionCommand | null {
  if (!choicesOf(card).some((choice) => choice.code === code)) return null;
  const interactionId = card.interactionId;
  if (code === MORE_TIME) return { type: "extend_deadline", interactionId } as SessionCommand;
  const response = CHAT_VIEWS[card.kind]?.response(card.request, code, text) ?? null;
  return response === null ? null : ({ type: "respond", interactionId, response } as SessionCommand);
}

/** The card's inputs when a platform's modal of at most `max` text inputs can answer it; else null. */
export function modalFieldsOf(card: Pick<InboxCard, "kind" | "request">, max: number): ModalField[] | null {
  return CHAT_VIEWS[card.kind]?.modalFields?.(card.request, max) ?? null;
}

/** The command the texts of that modal send; null when the card has no modal of `max` inputs. */
export function modalCommandFor(
  card: InboxCard,
  max: number,
  texts: Record<string, string>,
): SessionCommand | null {
  const view = CHAT_VIEWS[card.kind];
  const fields = view?.modalFields?.(card.request, max);
  if (!view?.modalResponse || !fields) return null;
  const response = view.modalResponse(card.request, fields, texts);
  return { type: "respond", interactionId: card.interactionId, response } as SessionCommand;
}
