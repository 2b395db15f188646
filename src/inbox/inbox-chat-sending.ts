// Sending the inbox's due chat rows: each is sent only to an account whose link still lasts, asked
// of the channel object (who an account belongs to) once per run and of the inbox's own links
// right before each send, so a link ended while rows were queued or in flight gets nothing more.
import type { ChatSender } from "../channels/chat-sender";
import { failureOf } from "../channels/chat-sender";
import type { DeliveryRows, DeliveryRow as SharedRow } from "../notify/delivery-rows";
import type { InboxCard } from "../protocol/inbox/inbox";
import type { ChatPlatform } from "../protocol/reach/channels";
import { PLATFORM_NAMES } from "../protocol/reach/platform-names";
import type { SqlCounter } from "../storage/sql-counter";
import type { ChatReminderPayload } from "./inbox-chat-reminders";

/** A row taken for sending is not taken again before this, so a dying alarm never sends twice at once. */
export const LEASE_MS = 60_000;
/** An edit waits this long for its card's message to be posted first. */
const WAIT_FOR_POST_MS = 5_000;
/** Rows wait this long when the channel object could not say whether their links last. */
const WAIT_FOR_CHANNELS_MS = 5_000;

/** A chat delivery row: the shared delivery columns and where and what it sends. */
export type ChatDeliveryRow = SharedRow & {
  platform: ChatPlatform;
  link_id: string;
  thread_id: string;
  session_id: string;
  change: "opened" | "resolved" | "reminder";
  payload: string;
  message_id: string | null;
  progress: string | null;
};

/** Where the inbox page opens a card. */
export function openUrlOf(origin: string, card: InboxCard): string {
  return `${origin}/#/inbox?card=${encodeURIComponent(card.interactionId)}`;
}

/** What a run of sends is lent: each platform's sender, and which links still last. */
export interface ChatSendingPorts {
  senderFor(platform: ChatPlatform): Promise<ChatSender | null>;
  /** Which of `linkIds` are still an account's link (the channel object's word); throws when it cannot say. */
  liveLinks(linkIds: string[]): Promise<string[]>;
}

export class ChatSending {
  constructor(
    private readonly sql: SqlCounter,
    private readonly rows: DeliveryRows<ChatDeliveryRow>,
    /** The inbox drops link `linkId` and every delivery still owed to it. */
    private readonly dropLink: (linkId: string) => void,
  ) {}

  /** Sends every row that is due; never throws. */
  async deliverDue(now: number, ports: ChatSendingPorts): Promise<void> {
    const due = this.rows.lease(now, now + LEASE_MS);
    if (due.length === 0) return;
    let live: Set<string>;
    try {
      live = new Set(await ports.liveLinks([...new Set(due.map((row) => row.link_id))]));
    } catch {
      // Not known to last is not sent: the rows wait, their attempts not counted.
      for (const row of due) this.rows.postpone(row.id, now + WAIT_FOR_CHANNELS_MS);
      return;
    }
    for (const row of due) {
      if (!live.has(row.link_id)) {
        // An account linked again, or unlinked, whose end has not reached this inbox yet.
        this.dropLink(row.link_id);
        this.rows.settleAttempt(row.id, row.attempts, { retry: false, message: "unlinked" });
        continue;
      }
      try {
        await this.deliver(row, now, ports.senderFor);
      } catch (error) {
        this.rows.settleAttempt(row.id, row.attempts, { retry: false, message: failureOf(error).message });
      }
    }
  }

  /** Sends one row taken outside the alarm (a press's receipt) at once, settled as the alarm would; never throws. */
  async deliverNow(
    row: ChatDeliveryRow,
    now: number,
    senderFor: (platform: ChatPlatform) => Promise<ChatSender | null>,
    /** The message a receipt edits, as its caller just read it. */
    opened?: ChatDeliveryRow,
  ): Promise<void> {
    try {
      await this.deliver(row, now, senderFor, opened);
    } catch (error) {
      this.rows.settleAttempt(row.id, row.attempts, { retry: false, message: failureOf(error).message });
    }
  }

  private async deliver(
    row: ChatDeliveryRow,
    now: number,
    senderFor: (platform: ChatPlatform) => Promise<ChatSender | null>,
    opened?: ChatDeliveryRow,
  ): Promise<void> {
    const sender = await senderFor(row.platform);
    if (!sender)
      return this.rows.settleAttempt(row.id, row.attempts, {
        retry: false,
        message: `${PLATFORM_NAMES[row.platform]} is not configured`,
      });
    // Read right before the send, after every await: an unlink that arrived meanwhile is seen.
    const account = this.sql.one<{ origin: string }>(
      `SELECT origin FROM chat_links WHERE link_id = ?`,
      row.link_id,
    );
    if (!account) return this.rows.settleAttempt(row.id, row.attempts, { retry: false, message: "unlinked" });
    try {
      if (row.change === "reminder") {
        const { rung, heading, text } = JSON.parse(row.payload) as ChatReminderPayload;
        await sender.notice(row.thread_id, { ref: row.id, rung, heading, text });
        return this.rows.settleAttempt(row.id, row.attempts, null);
      }
      if (row.change === "opened") {
        const card = JSON.parse(row.payload) as InboxCard;
        const message = { card, ref: row.id, openUrl: openUrlOf(account.origin, card) };
        if (row.message_id) {
          // Posted before: a redraw with the approvals so far, as far as its presses got.
          const progress = row.progress === null ? null : JSON.parse(row.progress);
          await sender.update(row.thread_id, row.message_id, { ...message, progress });
          return this.rows.settleAttempt(row.id, row.attempts, null);
        }
        const messageId = await sender.post(row.thread_id, message);
        this.sql.run(
          ["chat_deliveries"],
          `UPDATE chat_deliveries SET message_id = ? WHERE id = ?`,
          messageId,
          row.id,
        );
        return this.rows.settleAttempt(row.id, row.attempts, null);
      }
      const { receipt, opened: openedId } = JSON.parse(row.payload) as { receipt: string; opened: number };
      const message =
        opened?.id === openedId
          ? opened
          : this.sql.one<ChatDeliveryRow>(`SELECT * FROM chat_deliveries WHERE id = ?`, openedId);
      if (message?.status === "pending" && !message.message_id) {
        // The message is still on its way: edit it once it has an id (this try is not counted).
        return this.rows.postpone(row.id, now + WAIT_FOR_POST_MS);
      }
      if (!message?.message_id)
        return this.rows.settleAttempt(row.id, row.attempts, { retry: false, message: "never posted" });
      await sender.edit(row.thread_id, message.message_id, receipt);
      return this.rows.settleAttempt(row.id, row.attempts, null);
    } catch (error) {
      return this.rows.settleAttempt(row.id, row.attempts, failureOf(error));
    }
  }
}
