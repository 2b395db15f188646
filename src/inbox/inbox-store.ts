// The inbox's projection over its SQLite: applying a session's outbox rows exactly once (by the
// session's seq), its own numbered event per applied change, and the view `GET /api/inbox` shows.
import { ApprovalCount } from "../protocol/cards/approval-count";
import { CardDeadlineTerms } from "../protocol/cards/deadline-policy";
import type {
  InboxEvent,
  InboxSessionSummary,
  InboxView,
  OutboxEntry,
  ReceivedOutboxBatch,
} from "../protocol/inbox/inbox";
import type { Kept, KeptPerKey, SqlCounter } from "../storage/sql-counter";
import type { DecisionStore } from "./decision-store";

/** Inbox events kept for replay. */
export const MAX_KEPT_EVENTS = 5_000;
/** The log is trimmed each time it passes a multiple of this, not on every change: up to this many more are kept. */
const TRIM_STEP = 100;

export class InboxStore {
  // Kept between deliveries and brought up to date by this store's own writes: every statement
  // costs more than the rows it touches, and each delivery would read both again.
  private readonly keptLastSeq: Kept<number>;
  private readonly keptAppliedSeq: KeptPerKey<string, number | null>;

  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
    /** The person's decision record, which every card resolution with a decision joins. */
    private readonly decisions: DecisionStore | null = null,
  ) {
    this.keptLastSeq = sql.keptUntilWritten(
      ["events"],
      () => sql.one<{ seq: number | null }>(`SELECT MAX(seq) AS seq FROM events`)?.seq ?? 0,
    );
    this.keptAppliedSeq = sql.keptPerKey(
      ["sessions"],
      (sessionId: string) =>
        sql.one<{ applied_seq: number }>(`SELECT applied_seq FROM sessions WHERE session_id = ?`, sessionId)
          ?.applied_seq ?? null,
    );
  }

  get lastSeq(): number {
    return this.keptLastSeq();
  }

  /**
   * Applies the rows of `batch` this inbox has not applied yet, in order; answers the stored
   * frames of the events it appended and the highest seq it now holds. A repeated batch (the
   * session did not hear the answer and sent it again) appends nothing.
   */
  apply(batch: ReceivedOutboxBatch): { events: InboxEvent[]; frames: string[]; appliedThrough: number } {
    const now = this.now();
    let applied = this.appliedSeq(batch.sessionId, now);
    const first = this.lastSeq;
    const events: InboxEvent[] = [];
    const frames: string[] = [];
    // The batch's last summary is written with its applied seq, in one statement (a summary only
    // replaces the row's columns, so the last one alone counts).
    let summary: InboxSessionSummary | null = null;
    for (const row of batch.rows) {
      if (row.seq <= applied) continue;
      if (row.entry.type === "session_updated") summary = row.entry.session;
      else {
        // A removal in the same batch must not be followed by the summary before it.
        if (row.entry.type === "session_removed") summary = null;
        this.applyEntry(batch.sessionId, row.entry);
      }
      const event: InboxEvent = {
        seq: first + events.length + 1,
        at: now,
        sessionId: batch.sessionId,
        change: row.entry,
      };
      events.push(event);
      frames.push(JSON.stringify(event));
      applied = row.seq;
    }
    this.append(events, frames);
    const moved = summary
      ? this.sql.run(
          ["sessions"],
          `UPDATE sessions SET applied_seq = ?, status = ?, title = ?, agent = ?, created_at = ?, last_activity = ?
           WHERE session_id = ?`,
          applied,
          summary.status,
          summary.title,
          summary.agent,
          summary.createdAt,
          summary.lastActivity,
          batch.sessionId,
        )
      : this.sql.run(
          ["sessions"],
          `UPDATE sessions SET applied_seq = ? WHERE session_id = ?`,
          applied,
          batch.sessionId,
        );
    if (moved > 0) this.keptAppliedSeq.patch((kept) => kept.set(batch.sessionId, applied));
    this.trim(first, first + events.length);
    return { events, frames, appliedThrough: applied };
  }

  /** A deleted or expired session leaves the inbox; answers whether it was there. */
  forget(sessionId: string): string | null {
    if (!this.holds(sessionId)) return null;
    const change: OutboxEntry = { type: "session_removed" };
    this.applyEntry(sessionId, change);
    const last = this.lastSeq;
    const event: InboxEvent = { seq: last + 1, at: this.now(), sessionId, change };
    const frame = JSON.stringify(event);
    this.append([event], [frame]);
    this.trim(last, last + 1);
    return frame;
  }

  // The log is a replay buffer for streams, not history: a cursor older than what is kept replays
  // from the oldest kept event, and the client reloads the view from its hello. Trimmed when the
  // newest seq passes a multiple of TRIM_STEP (from `before` to `after`), not on every change.
  private trim(before: number, after: number): void {
    if (Math.floor(after / TRIM_STEP) === Math.floor(before / TRIM_STEP)) return;
    this.sql.run(["events"], `DELETE FROM events WHERE seq <= ?`, after - MAX_KEPT_EVENTS);
  }

  holds(sessionId: string): boolean {
    return this.sql.one(`SELECT 1 AS one FROM sessions WHERE session_id = ?`, sessionId) !== null;
  }

  framesAfter(after: number, limit: number): string[] {
    return this.sql
      .all<{ frame: string }>(`SELECT frame FROM events WHERE seq > ? ORDER BY seq LIMIT ?`, after, limit)
      .map((row) => row.frame);
  }

  /** How many cards are open across the person's sessions (the app's badge). */
  openCards(): number {
    return this.sql.one<{ n: number }>(`SELECT COUNT(*) AS n FROM cards`)?.n ?? 0;
  }

  view(person: string): InboxView {
    const sessions = this.sql
      .all<{
        session_id: string;
        status: string;
        title: string | null;
        agent: string;
        created_at: number;
        last_activity: number;
        open_cards: number;
      }>(
        `SELECT s.*, (SELECT COUNT(*) FROM cards c WHERE c.session_id = s.session_id) AS open_cards
         FROM sessions s ORDER BY last_activity DESC, session_id`,
      )
      .map((row) => ({
        sessionId: row.session_id,
        status: row.status as InboxView["sessions"][number]["status"],
        title: row.title,
        agent: row.agent,
        createdAt: row.created_at,
        lastActivity: row.last_activity,
        openCards: row.open_cards,
      }));
    const cards = this.sql
      .all<{
        session_id: string;
        interaction_id: string;
        tool_call_id: string;
        kind: string;
        tool_name: string;
        request: string;
        created_at: number;
        expires_at: number;
        deadline_policy: string | null;
        approvals: string | null;
      }>(`SELECT * FROM cards ORDER BY expires_at, created_at, interaction_id`)
      .map((row) => ({
        sessionId: row.session_id,
        interactionId: row.interaction_id,
        toolCallId: row.tool_call_id,
        kind: row.kind,
        toolName: row.tool_name,
        request: JSON.parse(row.request) as unknown,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        ...(row.deadline_policy
          ? { deadlinePolicy: CardDeadlineTerms.parse(JSON.parse(row.deadline_policy)) }
          : {}),
        ...(row.approvals ? { approvals: ApprovalCount.parse(JSON.parse(row.approvals)) } : {}),
      }));
    return { person, lastSeq: this.lastSeq, sessions, cards };
  }

  /** The session's applied seq; a session heard of for the first time gets a placeholder row. */
  private appliedSeq(sessionId: string, now: number): number {
    const applied = this.keptAppliedSeq(sessionId);
    if (applied !== null) return applied;
    this.sql.run(
      ["sessions"],
      `INSERT INTO sessions (session_id, applied_seq, status, title, agent, created_at, last_activity)
       VALUES (?, 0, 'idle', NULL, 'Parley', ?, ?)`,
      sessionId,
      now,
      now,
    );
    this.keptAppliedSeq.patch((kept) => kept.set(sessionId, 0));
    return 0;
  }

  private applyEntry(sessionId: string, entry: OutboxEntry): void {
    switch (entry.type) {
      // An escalated card is the card as it stands: its copy moves up its ladder.
      case "card_opened":
      case "card_escalated": {
        const card = entry.card;
        this.sql.run(
          ["cards"],
          `INSERT INTO cards (session_id, interaction_id, tool_call_id, kind, tool_name, request, created_at,
             expires_at, deadline_policy, approvals)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (session_id, interaction_id) DO UPDATE SET expires_at = excluded.expires_at,
             deadline_policy = COALESCE(excluded.deadline_policy, deadline_policy),
             approvals = COALESCE(excluded.approvals, approvals)`,
          sessionId,
          card.interactionId,
          card.toolCallId,
          card.kind,
          card.toolName,
          JSON.stringify(card.request ?? null),
          card.createdAt,
          card.expiresAt,
          card.deadlinePolicy ? JSON.stringify(card.deadlinePolicy) : null,
          card.approvals ? JSON.stringify(card.approvals) : null,
        );
        return;
      }
      case "card_changed": {
        // Only a card the inbox holds changes: a change never opens one.
        const card = entry.card;
        this.sql.run(
          ["cards"],
          `UPDATE cards SET expires_at = ?, deadline_policy = COALESCE(?, deadline_policy),
             approvals = COALESCE(?, approvals) WHERE session_id = ? AND interaction_id = ?`,
          card.expiresAt,
          card.deadlinePolicy ? JSON.stringify(card.deadlinePolicy) : null,
          card.approvals ? JSON.stringify(card.approvals) : null,
          sessionId,
          card.interactionId,
        );
        return;
      }
      case "card_resolved":
        this.sql.run(
          ["cards"],
          `DELETE FROM cards WHERE session_id = ? AND interaction_id = ?`,
          sessionId,
          entry.interactionId,
        );
        if (entry.decision) this.decisions?.record(sessionId, entry, entry.decision);
        return;
      case "session_removed":
        this.sql.run(["cards"], `DELETE FROM cards WHERE session_id = ?`, sessionId);
        this.sql.run(["sessions"], `DELETE FROM sessions WHERE session_id = ?`, sessionId);
        return;
      case "session_updated":
        // Written by `apply` with the batch's applied seq, in the same statement.
        return;
    }
  }

  // One statement for a delivery's events.
  private append(events: readonly InboxEvent[], frames: readonly string[]): void {
    const last = events[events.length - 1];
    if (!last) return;
    this.sql.insertRows(
      ["events"],
      `INSERT INTO events (seq, frame, at)`,
      events.map((event, i) => [event.seq, frames[i] as string, event.at]),
    );
    // Taken only when they went in one statement (any other write since the read is not ours).
    this.keptLastSeq.patch(() => last.seq);
  }
}
