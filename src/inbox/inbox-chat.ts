// Cards sent to the person's linked chat accounts: one delivery row per card and account (unique,
// so never posted twice), sent on the inbox's alarm with the push retry schedule, and a second row
// per message that edits it to the card's receipt once the card resolves anywhere.
import type { ChatSender } from "../channels/chat-sender";
import { failureOf } from "../channels/chat-sender";
import { RETRY_DELAYS_MS } from "../notify/notifier";
import type { ChatPlatform } from "../protocol/channels";
import type { InboxCard, InboxEvent, OutboxEntry } from "../protocol/inbox";
import type { DeliveryView } from "../protocol/notify";
import { OUTCOME_WORDS } from "../protocol/outcome-words";
import { namesSomeone } from "../protocol/people";
import { PLATFORM_NAMES } from "../protocol/platform-names";
import type { InboxChatAccount } from "../session/inbox-rpc";
import type { SqlCounter } from "../storage/sql-counter";

/** Declared with the inbox's RPC surface, which the channel object calls with it. */
export type { InboxChatAccount };

/** A row taken for sending is not taken again before this, so a dying alarm never sends twice at once. */
const LEASE_MS = 60_000;
/** An edit waits this long for its card's message to be posted first. */
const WAIT_FOR_POST_MS = 5_000;

type DeliveryRow = {
  id: number;
  platform: ChatPlatform;
  link_id: string;
  thread_id: string;
  session_id: string;
  interaction_id: string;
  change: "opened" | "resolved";
  payload: string;
  status: DeliveryView["status"];
  attempts: number;
  next_at: number | null;
  message_id: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
};

/** The receipt a chat message is edited to: "Approved by Ana · Telegram", "Timed out". */
export function chatReceipt(
  resolved: Pick<Extract<OutboxEntry, { type: "card_resolved" }>, "outcome" | "answeredBy">,
): string {
  const words = OUTCOME_WORDS[resolved.outcome];
  return namesSomeone(resolved.answeredBy) ? `${words} by ${resolved.answeredBy}` : words;
}

export class InboxChat {
  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {}

  addAccount(account: InboxChatAccount): void {
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

  /** The account stops getting cards; messages already sent are still edited when their cards resolve. */
  removeAccount(linkId: string): void {
    this.sql.run(["chat_links"], `DELETE FROM chat_links WHERE link_id = ?`, linkId);
    this.sql.run(
      ["chat_deliveries"],
      `UPDATE chat_deliveries SET status = 'failed', last_error = 'unlinked', next_at = NULL
       WHERE link_id = ? AND status = 'pending' AND change = 'opened' AND attempts = 0`,
      linkId,
    );
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
      } else if (change.type === "card_resolved") {
        enqueued = this.onResolved(event.sessionId, change.interactionId, chatReceipt(change)) || enqueued;
      } else if (change.type === "session_removed") {
        for (const row of this.messagesOf(event.sessionId, null)) {
          enqueued = this.onResolved(event.sessionId, row.interaction_id, "Withdrawn") || enqueued;
        }
      }
    }
    return enqueued;
  }

  private onResolved(sessionId: string, interactionId: string, receipt: string): boolean {
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
        JSON.stringify({ receipt, opened: opened.id }),
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
    const row = this.sql.one<DeliveryRow>(
      `SELECT * FROM chat_deliveries WHERE id = ? AND link_id = ? AND change = 'opened'`,
      ref,
      linkId,
    );
    return row ? (JSON.parse(row.payload) as InboxCard) : null;
  }

  /** Sends every row that is due with `senderFor(platform)`; never throws. */
  async deliverDue(
    now: number,
    senderFor: (platform: ChatPlatform) => Promise<ChatSender | null>,
  ): Promise<void> {
    const due = this.sql.all<DeliveryRow>(
      `SELECT * FROM chat_deliveries WHERE status = 'pending' AND next_at <= ? ORDER BY next_at, id LIMIT 50`,
      now,
    );
    for (const row of due) {
      this.sql.run(
        ["chat_deliveries"],
        `UPDATE chat_deliveries SET attempts = attempts + 1, next_at = ?, updated_at = ? WHERE id = ?`,
        now + LEASE_MS,
        now,
        row.id,
      );
    }
    for (const row of due) {
      try {
        await this.deliver({ ...row, attempts: row.attempts + 1 }, now, senderFor);
      } catch (error) {
        this.settle(row.id, row.attempts + 1, now, { retry: false, message: failureOf(error).message });
      }
    }
  }

  private async deliver(
    row: DeliveryRow,
    now: number,
    senderFor: (platform: ChatPlatform) => Promise<ChatSender | null>,
  ): Promise<void> {
    const sender = await senderFor(row.platform);
    if (!sender)
      return this.settle(row.id, row.attempts, now, {
        retry: false,
        message: `${PLATFORM_NAMES[row.platform]} is not configured`,
      });
    try {
      if (row.change === "opened") {
        const account = this.sql.one<{ origin: string }>(
          `SELECT origin FROM chat_links WHERE link_id = ?`,
          row.link_id,
        );
        if (!account) return this.settle(row.id, row.attempts, now, { retry: false, message: "unlinked" });
        const card = JSON.parse(row.payload) as InboxCard;
        const openUrl = `${account.origin}/#/inbox?card=${encodeURIComponent(card.interactionId)}`;
        const messageId = await sender.post(row.thread_id, { card, ref: row.id, openUrl });
        this.sql.run(
          ["chat_deliveries"],
          `UPDATE chat_deliveries SET message_id = ? WHERE id = ?`,
          messageId,
          row.id,
        );
        return this.settle(row.id, row.attempts, now, null);
      }
      const { receipt, opened } = JSON.parse(row.payload) as { receipt: string; opened: number };
      const message = this.sql.one<DeliveryRow>(`SELECT * FROM chat_deliveries WHERE id = ?`, opened);
      if (message?.status === "pending") {
        // The message is still on its way: edit it once it has an id (this try is not counted).
        this.sql.run(
          ["chat_deliveries"],
          `UPDATE chat_deliveries SET attempts = attempts - 1, next_at = ? WHERE id = ?`,
          now + WAIT_FOR_POST_MS,
          row.id,
        );
        return;
      }
      if (!message?.message_id)
        return this.settle(row.id, row.attempts, now, { retry: false, message: "never posted" });
      await sender.edit(row.thread_id, message.message_id, receipt);
      return this.settle(row.id, row.attempts, now, null);
    } catch (error) {
      return this.settle(row.id, row.attempts, now, failureOf(error));
    }
  }

  private settle(
    id: number,
    attempts: number,
    now: number,
    failure: { retry: boolean; message: string } | null,
  ): void {
    const delay = RETRY_DELAYS_MS[attempts - 1];
    const retry = failure?.retry === true && delay !== undefined;
    this.sql.run(
      ["chat_deliveries"],
      `UPDATE chat_deliveries SET status = ?, last_error = ?, next_at = ?, updated_at = ? WHERE id = ?`,
      failure === null ? "delivered" : retry ? "pending" : "failed",
      failure?.message ?? null,
      retry ? now + (delay as number) : null,
      now,
      id,
    );
  }

  nextDue(): number | null {
    return (
      this.sql.one<{ d: number | null }>(
        `SELECT MIN(next_at) AS d FROM chat_deliveries WHERE status = 'pending'`,
      )?.d ?? null
    );
  }

  /** The rows as the deliveries log lists them, newest first. */
  list(limit = 200): DeliveryView[] {
    return this.sql
      .all<DeliveryRow>(`SELECT * FROM chat_deliveries ORDER BY id DESC LIMIT ?`, limit)
      .map((row) => ({
        id: row.id,
        channel: row.platform,
        target: row.link_id,
        change: row.change,
        interactionId: row.interaction_id,
        status: row.status,
        attempts: row.attempts,
        nextAt: row.status === "pending" ? row.next_at : null,
        lastStatus: row.last_status,
        lastError: row.last_error,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      }));
  }

  private accounts() {
    return this.sql.all<{ link_id: string; platform: ChatPlatform; thread_id: string }>(
      `SELECT link_id, platform, thread_id FROM chat_links ORDER BY link_id`,
    );
  }

  private messagesOf(sessionId: string, interactionId: string | null) {
    return this.sql.all<DeliveryRow>(
      `SELECT * FROM chat_deliveries WHERE session_id = ? AND (? IS NULL OR interaction_id = ?) AND change = 'opened'`,
      sessionId,
      interactionId,
      interactionId,
    );
  }
}
