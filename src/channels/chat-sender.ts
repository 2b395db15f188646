// What the inbox needs of a chat platform to deliver cards: post one card to a direct message and
// later edit it to its receipt. Implemented per platform over the Chat SDK's adapters.
import type { InboxCard } from "../protocol/inbox/inbox";

export interface ChatCardMessage {
  card: InboxCard;
  /** The delivery row's id, the only thing a button carries back (Telegram allows 64 bytes). */
  ref: number;
  /** The inbox page at this card, for what a chat message cannot ask. */
  openUrl: string;
  /** What earlier presses on this message gathered (src/channels/card-choices.ts); absent before any. */
  progress?: unknown;
}

/** A short literal message of Parley's own about a card (a rung of its escalation ladder). */
export interface ChatNotice {
  /** The delivery row's id, so every try of one notice is the same message (Discord's nonce). */
  ref: number;
  /** Which rung of the card's ladder sent it: a later rung's notice is a message of its own. */
  rung: number;
  /** Parley's own words ("Still waiting"). */
  heading: string;
  /** The card's summary, the agent's words, shown as plain text. */
  text: string;
}

export interface ChatSender {
  /** Posts the card with its buttons; answers the platform's id of the message. */
  post(threadId: string, message: ChatCardMessage): Promise<string>;
  /** Replaces the message with `text` and takes its buttons away. */
  edit(threadId: string, messageId: string, text: string): Promise<void>;
  /** Shows the card again as far as its presses got (the next question, the toggles). */
  update(threadId: string, messageId: string, message: ChatCardMessage): Promise<void>;
  /** Posts a notice as plain text, with no buttons. */
  notice(threadId: string, notice: ChatNotice): Promise<void>;
}

/** How one attempt failed: worth trying again (network, 5xx, rate limits), or not. */
export function failureOf(error: unknown): { retry: boolean; message: string } {
  const name = error instanceof Error ? error.name : "";
  const message = error instanceof Error ? error.message : String(error);
  return {
    retry: name === "NetworkError" || name === "AdapterRateLimitError",
    message: message.slice(0, 200),
  };
}
