// Cards sent to the person's linked chat accounts: one delivery row per card and account (unique,
// so never posted twice), sent on the inbox's alarm as a push is (the same row shape, lease and
// retry schedule: src/notify/delivery-rows.ts), and a second row per message that edits it to the
// card's receipt once the card resolves anywhere. An account has one link here at a time. An
// approver's account gets a card only from a rung to approvers (inbox-chat-approvers.ts).
import { chatReceipt } from "../channels/card-receipt";
import { DeliveryRows } from "../notify/delivery-rows";
import type { InboxCard, InboxChatLink, InboxChatLinksFrame, InboxEvent } from "../protocol/inbox/inbox";
import type { ChatPlatform } from "../protocol/reach/channels";
import type { InboxChatAccount } from "../session/inbox-report/inbox-rpc";
import type { Kept, SqlCounter } from "../storage/sql-counter";
import { approverAccountsReached, approverCard, type ChatAccountRow } from "./inbox-chat-approvers";
import { ChatMessages } from "./inbox-chat-messages";
import { dropReminders, enqueueReminders } from "./inbox-chat-reminders";
import { ChatRetention } from "./inbox-chat-retention";
import { type ChatDeliveryRow, ChatSending, type ChatSendingPorts } from "./inbox-chat-sending";
import { PeopleStore } from "./people-store";

/** Declared with the inbox's RPC surface, which the channel object calls with it. */
export type { InboxChatAccount };

type DeliveryRow = ChatDeliveryRow;

type AccountRow = ChatAccountRow;

export class InboxChat {
  private readonly rows: DeliveryRows<DeliveryRow>;
  readonly sending: ChatSending;
  readonly retention: ChatRetention;
  /** What a press, a modal or a reply finds of a card's message (inbox-chat-messages.ts). */
  readonly messages: ChatMessages;
  // Asked on every delivery a session makes, so kept until their table is written. `anyMessage`:
  // whether a card was ever posted to chat; without one, a resolved card has no message to edit.
  private readonly accounts: Kept<AccountRow[]>;
  private readonly anyMessage: Kept<boolean>;
  /** Who each approver's account answers as, and whether they still may. */
  readonly people: PeopleStore;

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
    this.messages = new ChatMessages(sql);
    this.people = new PeopleStore(sql, now);
    this.accounts = sql.keptUntilWritten(["chat_links"], () =>
      sql.all<AccountRow>(
        `SELECT link_id, platform, thread_id, approver_id FROM chat_links ORDER BY link_id`,
      ),
    );
    this.anyMessage = sql.keptUntilWritten(
      ["chat_deliveries"],
      () => sql.all(`SELECT 1 FROM chat_deliveries WHERE change = 'opened' LIMIT 1`).length > 0,
    );
  }

  /**
   * Links an account here; any other link of the same account here ends (an account has one link).
   * An approver's account is linked only while the approver may answer.
   */
  addAccount(account: InboxChatAccount): void {
    const approverId = account.approverId ?? null;
    if (approverId !== null && !this.people.live(approverId)) return;
    const others = this.sql.all<{ link_id: string }>(
      `SELECT link_id FROM chat_links WHERE platform = ? AND account_id = ? AND link_id != ?`,
      account.platform,
      account.accountId,
      account.linkId,
    );
    for (const other of others) this.removeAccount(other.link_id);
    this.sql.run(
      ["chat_links"],
      `INSERT INTO chat_links (link_id, platform, account_id, name, thread_id, origin, approver_id)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (link_id) DO NOTHING`,
      account.linkId,
      account.platform,
      account.accountId,
      account.name,
      account.threadId,
      account.origin,
      approverId,
    );
  }

  /** The approver that link `linkId` answers as; null for the person's own (or no such link). */
  approverOf(linkId: string): string | null {
    return this.accounts().find((account) => account.link_id === linkId)?.approver_id ?? null;
  }

  /** A removed approver's accounts get nothing more from here; their link ids. */
  removeApprover(approverId: string): string[] {
    const linkIds = this.accounts()
      .filter((account) => account.approver_id === approverId)
      .map((account) => account.link_id);
    for (const linkId of linkIds) this.removeAccount(linkId);
    return linkIds;
  }

  /** The person's own accounts: every card they are sent, every reminder to "me". */
  private own(): AccountRow[] {
    return this.accounts().filter((account) => account.approver_id === null);
  }

  /** The accounts cards go to, as the person's own inbox stream lists them. */
  links(): InboxChatLink[] {
    return this.sql
      .all<{ link_id: string; platform: ChatPlatform; account_id: string; name: string }>(
        `SELECT link_id, platform, account_id, name FROM chat_links WHERE approver_id IS NULL ORDER BY link_id`,
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
        for (const account of this.own()) {
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
        if (!change.rung.notify.includes("chat")) continue;
        const card: InboxCard = { ...change.card, sessionId: event.sessionId };
        enqueued =
          (change.rung.to === "me"
            ? enqueueReminders(this.sql, this.now(), this.own(), card, change.rung.rung)
            : this.toApprovers(card)) || enqueued;
      } else if (change.type === "session_removed") {
        enqueued = this.forgetSession(event.sessionId) || enqueued;
      }
    }
    return enqueued;
  }

  /** The card's message, with what an approver may press, to each approver's account the rung reaches. */
  private toApprovers(card: InboxCard): boolean {
    let enqueued = false;
    const shown = approverCard(card);
    for (const account of approverAccountsReached(this.sql, this.people, this.accounts(), card)) {
      enqueued =
        this.enqueue(account.link_id, account.platform, account.thread_id, card, "opened", shown) || enqueued;
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
        JSON.stringify(this.approverOf(row.link_id) === null ? card : approverCard(card)),
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
      const receiptOf = receipt((JSON.parse(opened.payload) as InboxCard).kind);
      const inserted = this.insertReceipt(opened, receiptOf);
      enqueued = inserted || enqueued;
    }
    return enqueued;
  }

  /**
   * Takes the edit of message `opened` to `receipt` for sending now, leased as the alarm leases a
   * row (so the alarm only retries it, should this send fail); null when the edit is already sent
   * or being sent. A redraw still owed to the message is dropped: its card has resolved.
   */
  claimReceipt(opened: DeliveryRow, receipt: string, leaseUntil: number): DeliveryRow | null {
    this.sql.run(
      ["chat_deliveries"],
      `UPDATE chat_deliveries SET status = 'failed', last_error = 'resolved before sending', next_at = NULL
       WHERE id = ? AND status = 'pending'`,
      opened.id,
    );
    this.insertReceipt(opened, receipt);
    // Whoever wrote the row (this press, or the session's report of the resolution), an edit not
    // yet tried is taken now.
    const row = this.sql.one<DeliveryRow>(
      `SELECT *, platform AS channel, link_id AS target FROM chat_deliveries
       WHERE link_id = ? AND session_id = ? AND interaction_id = ? AND change = 'resolved'
         AND status = 'pending' AND attempts = 0`,
      opened.link_id,
      opened.session_id,
      opened.interaction_id,
    );
    if (!row) return null;
    this.sql.run(
      ["chat_deliveries"],
      `UPDATE chat_deliveries SET attempts = 1, next_at = ?, updated_at = ? WHERE id = ?`,
      leaseUntil,
      this.now(),
      row.id,
    );
    return { ...row, attempts: 1 };
  }

  /** The row that edits message `opened` to `receipt`, unless it has one; whether it was written. */
  private insertReceipt(opened: DeliveryRow, receipt: string): boolean {
    const at = this.now();
    return (
      this.sql.run(
        ["chat_deliveries"],
        `INSERT INTO chat_deliveries (platform, link_id, thread_id, session_id, interaction_id, change, payload, status,
           attempts, next_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'resolved', ?, 'pending', 0, ?, ?, ?) ON CONFLICT DO NOTHING`,
        opened.platform,
        opened.link_id,
        opened.thread_id,
        opened.session_id,
        opened.interaction_id,
        JSON.stringify({ receipt, opened: opened.id }),
        at,
        at,
        at,
      ) > 0
    );
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
