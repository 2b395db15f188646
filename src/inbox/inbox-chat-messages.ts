// A card's chat messages as an account's press, modal or reply finds them: the card a button of a
// message stands for, the session a reply goes to, what a press comes to (progress kept with the
// message, read and written in one step), and the message shown again as far as its presses got.
import { pressOf, textWanted } from "../channels/card-choices";
import type { ChatSender } from "../channels/chat-sender";
import type { ChatMessageSession } from "../objects/contracts/inbox-chat";
import type { InboxCard } from "../protocol/inbox/inbox";
import type { SessionCommand } from "../protocol/wire/commands";
import type { SqlCounter } from "../storage/sql-counter";
import { ERASED_PAYLOAD } from "./inbox-chat-retention";
import { type ChatDeliveryRow, openUrlOf } from "./inbox-chat-sending";

/** A card's message as a press finds it: its row, the card, what its presses gathered. */
export interface ChatMessageOfCard {
  row: ChatDeliveryRow;
  card: InboxCard;
  progress: unknown;
}

/** What a press on a card's message came to: a command for the card's session, or what to say. */
export type ChatPressOutcome =
  | { type: "command"; message: ChatMessageOfCard; command: SessionCommand }
  | { type: "progress"; message: ChatMessageOfCard }
  | { type: "resolved"; receipt: string }
  | { type: "unknown" }
  | { type: "not_offered" };

export class ChatMessages {
  constructor(private readonly sql: SqlCounter) {}

  /** The card a button of message `ref` stands for, when `linkId`'s account was sent it. */
  cardOf(ref: number, linkId: string): InboxCard | null {
    return this.messageOf(ref, linkId)?.card ?? null;
  }

  /** Message `ref` as a press of `linkId`'s account finds it; null when that account was not sent it. */
  messageOf(ref: number, linkId: string): ChatMessageOfCard | null {
    const row = this.sql.one<ChatDeliveryRow>(
      `SELECT * FROM chat_deliveries WHERE id = ? AND link_id = ? AND change = 'opened'`,
      ref,
      linkId,
    );
    // A deleted session's message keeps no card to answer.
    if (!row || row.payload === ERASED_PAYLOAD) return null;
    return {
      row,
      card: JSON.parse(row.payload) as InboxCard,
      progress: row.progress === null ? null : JSON.parse(row.progress),
    };
  }

  /**
   * The session whose card message `messageId` (the platform's id, as its sender answered it) was
   * sent to `linkId`'s account, with the title the inbox knows it by; null for any other message.
   */
  sessionOfMessage(linkId: string, messageId: string): ChatMessageSession | null {
    const row = this.sql.one<{ session_id: string; title: string | null; agent: string }>(
      `SELECT d.session_id, s.title, s.agent FROM chat_deliveries d JOIN sessions s ON s.session_id = d.session_id
       WHERE d.link_id = ? AND d.message_id = ? AND d.change = 'opened' AND d.payload != ?`,
      linkId,
      messageId,
      ERASED_PAYLOAD,
    );
    return row ? { sessionId: row.session_id, title: row.title ?? row.agent } : null;
  }

  /** The text choice `code` of message `ref` asks for first; null when it asks none (or is not offered). */
  textWanted(ref: number, linkId: string, code: string): { prompt: string; label: string } | null {
    const message = this.messageOf(ref, linkId);
    return message ? textWanted(message.card, message.progress, code) : null;
  }

  /**
   * A press of `code` (with the text it asked for) on message `ref`, read and kept in one step so
   * two presses never lose each other's toggles: the card's command once the answer is whole.
   */
  press(ref: number, linkId: string, code: string, text: string | null): ChatPressOutcome {
    const message = this.messageOf(ref, linkId);
    if (!message) return { type: "unknown" };
    const press = pressOf(message.card, message.progress, code, text);
    if (press === null) return { type: "not_offered" };
    if ("command" in press) return { type: "command", message, command: press.command };
    // A card already resolved keeps its receipt: a late toggle must not bring its buttons back.
    const resolved = this.sql.one<{ payload: string }>(
      `SELECT payload FROM chat_deliveries WHERE link_id = ? AND session_id = ? AND interaction_id = ? AND change = 'resolved'`,
      linkId,
      message.card.sessionId,
      message.card.interactionId,
    );
    if (resolved)
      return { type: "resolved", receipt: (JSON.parse(resolved.payload) as { receipt: string }).receipt };
    this.saveProgress(ref, linkId, press.progress);
    return { type: "progress", message: { ...message, progress: press.progress } };
  }

  /** Shows `message` again as far as its presses got; false when it could not be. */
  async showAgain(message: ChatMessageOfCard, sender: ChatSender | null): Promise<boolean> {
    const { row, card, progress } = message;
    // Read after the sender was loaded: a link ended meanwhile is shown nothing.
    const account = this.sql.one<{ origin: string }>(
      `SELECT origin FROM chat_links WHERE link_id = ?`,
      row.link_id,
    );
    if (!row.message_id || !account || !sender) return false;
    try {
      await sender.update(row.thread_id, row.message_id, {
        card,
        ref: row.id,
        openUrl: openUrlOf(account.origin, card),
        progress,
      });
      return true;
    } catch {
      // The presses are kept: the next press shows the message again.
      return false;
    }
  }

  /** Keeps what message `ref`'s presses gathered so far (null: start again). */
  saveProgress(ref: number, linkId: string, progress: unknown): void {
    this.sql.run(
      ["chat_deliveries"],
      `UPDATE chat_deliveries SET progress = ? WHERE id = ? AND link_id = ? AND change = 'opened'`,
      progress === null ? null : JSON.stringify(progress),
      ref,
      linkId,
    );
  }
}
