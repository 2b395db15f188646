// The buttons a chat message of a card offers, and what each press does: the session command it
// sends, or one more part of the answer kept with the message. Buttons carry only a short choice
// code; what it means is read again from the card the inbox holds, through the kind's own chat view
// (src/interactions/kinds/chat-views.ts).
import type { ChatChoice, ModalField } from "../interactions/kinds/chat-view";
import { CHAT_VIEWS } from "../interactions/kinds/chat-views";
import type { InboxCard } from "../protocol/inbox/inbox";
import type { SessionCommand } from "../protocol/wire/commands";

export type { ChatChoice };

/** The code of the "More time" button every extendable card gets. */
const MORE_TIME = "x";

type CardFacts = Pick<InboxCard, "kind" | "request" | "deadlinePolicy" | "expiresAt">;

/** The card's choices as buttons, as far as `progress` got; empty when it must be answered in Parley (forms). */
export function choicesOf(card: CardFacts, progress: unknown = null): ChatChoice[] {
  const choices = CHAT_VIEWS[card.kind]?.choices(card.request, progress) ?? [];
  const policy = card.deadlinePolicy;
  // As on the page: offered while the deadline may still move.
  if (choices.length > 0 && policy && card.expiresAt < policy.maxExpiresAt) {
    choices.push({ code: MORE_TIME, label: "More time" });
  }
  return choices;
}

/** The request in words beyond the kind's summary line, as its chat view says it. */
export function detailOf(card: Pick<InboxCard, "kind" | "request">, progress: unknown = null): string | null {
  return CHAT_VIEWS[card.kind]?.detail(card.request, progress) ?? null;
}

/** The page a card is about (a URL card's), as a link button. */
export function linkOf(card: Pick<InboxCard, "kind" | "request">): { label: string; url: string } | null {
  return CHAT_VIEWS[card.kind]?.link?.(card.request) ?? null;
}

/** What the platform asks the person before choice `code` can be sent; null when it needs no text. */
export function textWanted(card: CardFacts, progress: unknown, code: string) {
  return choicesOf(card, progress).find((choice) => choice.code === code)?.needsText ?? null;
}

export type CardPress = { command: SessionCommand } | { progress: unknown };

/** What a press of `code` (with the text it asked for) does; null for a code this card does not offer now. */
export function pressOf(
  card: InboxCard,
  progress: unknown,
  code: string,
  text: string | null,
): CardPress | null {
  const choice = choicesOf(card, progress).find((offered) => offered.code === code);
  if (!choice || (choice.needsText && !text?.trim())) return null;
  const interactionId = card.interactionId;
  if (code === MORE_TIME) return { command: { type: "extend_deadline", interactionId } as SessionCommand };
  const press = CHAT_VIEWS[card.kind]?.press(card.request, progress, code, text) ?? null;
  if (press === null) return null;
  if ("progress" in press) return { progress: press.progress };
  return { command: { type: "respond", interactionId, response: press.response } as SessionCommand };
}

/** The code of "Fill in" where a platform's modal holds the card's inputs; its modal carries it too. */
export const FILL_IN = "f";

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
