// Cards sent to the person's linked chat accounts: one delivery row per card and account (unique,
// so never posted twice), sent on the inbox's alarm as a push is (the same row shape, lease and
// retry schedule: src/notify/delivery-rows.ts), and a second row per message that edits it to the
// card's receipt once the card resolves anywhere. An account has one link here at a time.
import { pressOf, textWanted } from "../channels/card-choices";
import { chatReceipt } from "../channels/card-receipt";
import type { ChatSender } from "../channels/chat-sender";
import { DeliveryRows } from "../notify/delivery-rows";
import type { ChatPlatform } from "../protocol/channels";
import type { InboxCard, InboxChatLink, InboxChatLinksFrame, InboxEvent } from "../protocol/inbox";
import type {
  ChatMessageSession,
  ChatPressOutcome,
  InboxChatAccount,
} from "../session/inbox-report/inbox-rpc";
import type { Kept, SqlCounter } from "../storage/sql-counter";
import { dropReminders, enqueueReminders } from "./inbox-chat-reminders";
import { ChatRetention, ERASED_PAYLOAD } from "./inbox-chat-retention";
import { type ChatDeliveryRow, ChatSending, type ChatSendingPorts, openUrlOf } from "./inbox-chat-sending";

/** Declared with the inbox's RPC surface, which the channel object calls with it. */
export type { ChatPressOutcome, InboxChatAccount };

type DeliveryRow = ChatDeliveryRow;

/** A card's message as a press finds it: the card, where it was posted, what its presses gathered. */
export interface ChatMessageOfCard {
  card: InboxCard;
  threadId: string;
  messageId: string | null;
  progress: unknown;
}

type AccountRow = { link_id: string; platform: ChatPlatform; thread_id: string };

export class InboxChat {
  private readonly rows: DeliveryRows<DeliveryRow>;
  private readonly sending: ChatSending;
  readonly retention: ChatRetention;
  // Asked on every delivery a session makes, so kept until their table is written. `anyMessage`:
  // whether a card was ever posted to chat; without one, a resolved card has no message to edit.
  private readonly accounts: Kept<AccountRow[]>;
  private readonly anyMessage: Kept<boolean>;

  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {
    this.rows = new DeliveryRows(sql, now, {
      name: "chat_deliveries",
      columns: "*, platform AS channel, link_id AS target",
    });
    this.sending = new ChatSending(sql, this.rows, (linkId) => this.removeAccount(linkId));
    this.retention = new ChatRetention(sql);
    this.accounts = sql.keptUntilWritten(["chat_links"], () =>
      sql.all<AccountRow>(`SELECT link_id, platform, thread_id FROM chat_links ORDER BY link_id`),
    );
    this.anyMessage = sql.keptUntilWritten(
      ["chat_deliveries"],
      () => sql.all(`SELECT 1 FROM chat_deliveries WHERE change = 'opened' LIMIT 1`).length > 0,
    );
  }

  /** Links an account here; any other link of the same account here ends (an account has one link). */
  addAccount(account: InboxChatAccount): void {
    const others = this.sql.all<{ link_id: string }>(
      `SELECT link_id FROM chat_links WHERE platform = ? AND account_id = ? AND link_id != ?`,
      account.platform,
      account.accountId,
      account.linkId,
    );
    for (const other of others) this.removeAccount(other.link_id);
    this.sql.run(
      ["chat_links"],
      `INSERT INTO chat_links (link_id, platform, account_id, name, thread_id, origin) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (link_id) DO NOTHING`,
      account.linkId,
      account.platform,
      account.accountId,
      account.name,
      account.threadId,
      account.origin,
    );
  }

  /** The accounts cards go to, as the person's own inbox stream lists them. */
  links(): InboxChatLink[] {
    return this.sql
      .all<{ link_id: string; platform: ChatPlatform; account_id: string; name: string }>(
        `SELECT link_id, platform, account_id, name FROM chat_links ORDER BY link_id`,
      )
      .map((row) => ({
        linkId: row.link_id,
        platform: row.platform,
        accountId: row.account_id,
        name: row.name,
      }));
  }

  /** The frame that lists them on the person's own sockets. */
  linksFrame(): string {
    const frame: InboxChatLinksFrame = { type: "chat_links", links: this.links() };
    return JSON.stringify(frame);
  }

  /** The account gets nothing more from here, not even what was queued or is being retried. */
  removeAccount(linkId: string): void {
    this.sql.run(["chat_links"], `DELETE FROM chat_links WHERE link_id = ?`, linkId);
    this.sql.run(
      ["chat_deliveries"],
      `UPDATE chat_deliveries SET status = 'failed', last_error = 'unlinked', next_at = NULL
       WHERE link_id = ? AND status = 'pending'`,
      linkId,
    );
  }

  /** Session `sessionId` was deleted: its messages are edited to "Withdrawn" and its rows keep no card. */
  forgetSession(sessionId: string): boolean {
    if (!this.anyMessage()) return false;
    let enqueued = false;
    for (const row of this.messagesOf(sessionId, null)) {
      enqueued = this.onResolved(sessionId, row.interaction_id, () => "Withdrawn") || enqueued;
    }
    this.retention.erase(sessionId);
    return enqueued;
  }

  /** Enqueues a message per card opened and an edit per message of a card resolved; true when any was. */
  onApplied(events: readonly InboxEvent[]): boolean {
    let enqueued = false;
    for (const event of events) {
      const change = event.change;
      if (change.type === "card_opened") {
        const card: InboxCard = { ...change.card, sessionId: event.sessionId };
        for (const account of this.accounts()) {
          enqueued =
            this.enqueue(account.link_id, account.platform, account.thread_id, card, "opened", card) ||
            enqueued;
        }
        enqueued = this.redrawCounted(card) || enqueued;
      } else if (change.type === "card_changed") {
        enqueued = this.redrawCounted({ ...change.card, sessionId: event.sessionId }) || enqueued;
      } else if (change.type === "card_resolved") {
        enqueued =
          this.onResolved(event.sessionId, change.interactionId, (kind) => chatReceipt(kind, change)) ||
          enqueued;
      } else if (change.type === "card_escalated") {
        if (change.rung.to !== "me" || !change.rung.notify.includes("chat")) continue;
        const card: InboxCard = { ...change.card, sessionId: event.sessionId };
        enqueued =
          enqueueReminders(this.sql, this.now(), this.accounts(), card, change.rung.rung) || enqueued;
      } else if (change.type === "session_removed") {
        enqueued = this.forgetSession(event.sessionId) || enqueued;
      }
    }
    return enqueued;
  }

  /**
   * A card seen again with a new count of approvals ("1 of 2"): each of its posted messages is sent
   * again as a redraw, through the same row, so a failed redraw is retried like a post. A card that
   * resolved keeps its receipt.
   */
  private redrawCounted(card: InboxCard): boolean {
    if (!card.approvals) return false;
    const rows = this.sql.all<DeliveryRow>(
      `SELECT * FROM chat_deliveries WHERE session_id = ? AND interaction_id = ? AND change = 'opened'
         AND message_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM chat_deliveries r
           WHERE r.session_id = chat_deliveries.session_id AND r.interaction_id = chat_deliveries.interaction_id
             AND r.link_id = chat_deliveries.link_id AND r.change = 'resolved')`,
      card.sessionId,
      card.interactionId,
    );
    let redrawn = false;
    for (const row of rows) {
      const shown = (JSON.parse(row.payload) as InboxCard).approvals;
      if (shown?.given === card.approvals.given) continue;
      const at = this.now();
      this.sql.run(
        ["chat_deliveries"],
        `UPDATE chat_deliveries SET payload = ?, status = 'pending', attempts = 0, next_at = ?, updated_at = ?
           WHERE id = ?`,
        JSON.stringify(card),
        at,
        at,
        row.id,
      );
      redrawn = true;
    }
    return redrawn;
  }

  private onResolved(sessionId: string, interactionId: string, receipt: (kind: string) => string): boolean {
    // Only a linked account has reminders pending (unlinking fails its pending rows).
    if (this.accounts().length > 0) dropReminders(this.sql, sessionId, interactionId);
    let enqueued = false;
    for (const opened of this.messagesOf(sessionId, interactionId)) {
      if (opened.status === "pending" && opened.attempts === 0) {
        // Never sent: nothing to edit, and nothing left to ask.
        this.sql.run(
          ["chat_deliveries"],
          `UPDATE chat_deliveries SET status = 'failed', last_error = 'resolved before sending', next_at = NULL WHERE id = ?`,
          opened.id,
        );
        continue;
      }
      if (opened.status !== "delivered" && opened.status !== "pending") continue;
      const inserted = this.sql.run(
        ["chat_deliveries"],
        `INSERT INTO chat_deliveries (platform, link_id, thread_id, session_id, interaction_id, change, payload, status,
           attempts, next_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'resolved', ?, 'pending', 0, ?, ?, ?) ON CONFLICT DO NOTHING`,
        opened.platform,
        opened.link_id,
        opened.thread_id,
        sessionId,
        interactionId,
        JSON.stringify({
          receipt: receipt((JSON.parse(opened.payload) as InboxCard).kind),
          opened: opened.id,
        }),
        this.now(),
        this.now(),
        this.now(),
      );
      enqueued = inserted > 0 || enqueued;
    }
    return enqueued;
  }

  private enqueue(
    linkId: string,
    platform: ChatPlatform,
    threadId: string,
    card: InboxCard,
    change: "opened",
    payload: unknown,
  ): boolean {
    const at = this.now();
    return (
      this.sql.run(
        ["chat_deliveries"],
        `INSERT INTO chat_deliveries (platform, link_id, thread_id, session_id, interaction_id, change, payload, status,
           attempts, next_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?) ON CONFLICT DO NOTHING`,
        platform,
        linkId,
        threadId,
        card.sessionId,
        card.interactionId,
        change,
        JSON.stringify(payload),
        at,
        at,
        at,
      ) > 0
    );
  }

  /** The card a button of message `ref` stands for, when `linkId`'s account was sent it. */
  cardOf(ref: number, linkId: string): InboxCard | null {
    return this.messageOf(ref, linkId)?.card ?? null;
  }

  /** Message `ref` as a press of `linkId`'s account finds it; null when that account was not sent it. */
  messageOf(ref: number, linkId: string): ChatMessageOfCard | null {
    const row = this.sql.one<DeliveryRow>(
      `SELECT * FROM chat_deliveries WHERE id = ? AND link_id = ? AND change = 'opened'`,
      ref,
      linkId,
    );
    // A deleted session's message keeps no card to answer.
    if (!row || row.payload === ERASED_PAYLOAD) return null;
    return {
      card: JSON.parse(row.payload) as InboxCard,
      threadId: row.thread_id,
      messageId: row.message_id,
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
    if ("command" in press) return { type: "command", card: message.card, command: press.command };
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
    return { type: "progress" };
  }

  /** Shows message `ref` again as far as its presses got; false when it could not be. */
  async showAgain(
    ref: number,
    linkId: string,
    senderFor: (platform: ChatPlatform) => Promise<ChatSender | null>,
  ): Promise<boolean> {
    const row = this.sql.one<DeliveryRow>(
      `SELECT * FROM chat_deliveries WHERE id = ? AND link_id = ?`,
      ref,
      linkId,
    );
    const sender = row ? await senderFor(row.platform) : null;
    // Read after the await: a link ended meanwhile is shown nothing.
    const account = this.sql.one<{ origin: string }>(
      `SELECT origin FROM chat_links WHERE link_id = ?`,
      linkId,
    );
    if (!row?.message_id || row.payload === ERASED_PAYLOAD || !account || !sender) return false;
    const card = JSON.parse(row.payload) as InboxCard;
    const progress = row.progress === null ? null : JSON.parse(row.progress);
    try {
      await sender.update(row.thread_id, row.message_id, {
        card,
        ref,
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

  /** Sends every row that is due to an account whose link lasts; never throws. */
  deliverDue(now: number, ports: ChatSendingPorts): Promise<void> {
    return this.sending.deliverDue(now, ports);
  }

  nextDue(): number | null {
    return this.rows.earliestDue();
  }

  /** The rows as the deliveries log lists them, newest first. */
  list(limit = 200) {
    return this.rows.list(limit);
  }

  private messagesOf(sessionId: string, interactionId: string | null): DeliveryRow[] {
    if (!this.anyMessage()) return [];
    return this.sql.all<DeliveryRow>(
      `SELECT * FROM chat_deliveries WHERE session_id = ? AND (? IS NULL OR interaction_id = ?) AND change = 'opened'`,
      sessionId,
      interactionId,
      interactionId,
    );
  }
}
