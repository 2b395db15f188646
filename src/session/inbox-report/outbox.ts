// The session's outbox: changes for its creator's inbox, written in the same transaction as the
// event they follow, as delivery rows of the one shape (src/notify/delivery-rows.ts). They go in id
// order, the oldest first, in one batch leased while it is sent; once the inbox confirmed them they
// are kept for the delivery log without their entry, and a failed batch waits for its retry.
// A row travels as the JSON text stored for it: the inbox parses it once, where it receives it.
import { type AnyDeliveryRow, DeliveryRows } from "../../notify/delivery-rows";
import type { OutboxEntry, OutboxRow } from "../../protocol/inbox/inbox";
import type { DeliveryView } from "../../protocol/reach/notify";
import { atEndOfStep, type DeferredWrites } from "../../storage/deferred-writes";
import type { Kept, SqlCounter } from "../../storage/sql-counter";

/** Settled rows kept for the log; older ones are dropped each time the ids pass a step of this. */
const KEPT_ROWS = 200;
const TRIM_STEP = 50;

/** When the oldest waiting row, and the oldest card row (anything but a summary), were written. */
export interface OutboxWaiting {
  oldest: number | null;
  oldestCard: number | null;
}

/** The oldest rows of a batch, leased, and the attempt they are on. */
export interface OutboxBatchRows {
  rows: OutboxRow[];
  attempts: number;
}

/** The oldest card row, the newest summary row and when tried rows wait until, as kept between writes. */
type Waiting = { card: number | null; summary: number | null; blocked: number | null };

type Row = AnyDeliveryRow & { type: OutboxEntry["type"]; entry: string };

/** A row added in this step: its entry's type and text, when, and the card it is about. */
type Unwritten = { type: OutboxEntry["type"]; json: string; at: number; card: string | null };

export class SqlOutbox implements DeferredWrites {
  private readonly rows: DeliveryRows<Row>;
  // Asked on every re-arm of the alarm, several times a step; kept until `outbox` changes, and
  // brought up to date by this class's own writes.
  private readonly kept: Kept<Waiting>;
  // INVARIANT: rows added and not yet written, in order, with at most one summary (the newest).
  // Written in one statement when the step's microtask turn ends, before anything reads the
  // table, and inside a transaction (SessionState.atomically); a rollback drops them.
  private unwritten: Unwritten[] = [];
  private readonly flushSoon = atEndOfStep(
    () => this.flush(),
    (error) => this.sql.onDeferredWriteFailure(error),
  );

  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {
    // A report's channel is the inbox; its target the person it reports to, its change the entry's.
    this.rows = new DeliveryRows(sql, this.now, {
      name: "outbox",
      columns: `*, 'inbox' AS channel,
        (SELECT json_extract(value, '$') FROM meta WHERE key = 'creator') AS target,
        CASE type WHEN 'card_opened' THEN 'opened' WHEN 'card_resolved' THEN 'resolved'
          WHEN 'card_changed' THEN 'changed' WHEN 'card_escalated' THEN 'escalation' ELSE 'summary' END AS change`,
    });
    this.kept = sql.keptUntilWritten(["outbox"], () => {
      const row = sql.one<Waiting>(
        `SELECT MIN(CASE WHEN type != 'session_updated' THEN created_at END) AS card,
                MAX(CASE WHEN type = 'session_updated' THEN created_at END) AS summary,
                MAX(CASE WHEN attempts > 0 THEN next_at END) AS blocked
         FROM outbox WHERE status = 'pending'`,
      );
      return { card: row?.card ?? null, summary: row?.summary ?? null, blocked: row?.blocked ?? null };
    });
  }

  /** What waits, and since when (rows not yet written included). */
  waiting(): OutboxWaiting {
    const { card, summary } = this.unwritten.reduce(withRow, this.kept());
    const oldest = card === null ? summary : summary === null ? card : Math.min(card, summary);
    return { oldest, oldestCard: card };
  }

  /** Until when the rows already tried wait (their lease, or their retry); null when none waits. */
  blockedUntil(): number | null {
    return this.kept().blocked;
  }

  add(entry: OutboxEntry, at: number): void {
    // Only the latest summary of the session matters: an older one not yet tried is replaced (one
    // such row at most, by a unique index; REPLACE deletes it and inserts with a new id). One
    // already tried stays in its place; the newer one follows it with a higher id.
    if (entry.type === "session_updated") {
      this.unwritten = this.unwritten.filter((row) => row.type !== "session_updated");
    }
    const card =
      "card" in entry ? entry.card.interactionId : "interactionId" in entry ? entry.interactionId : null;
    this.unwritten.push({ type: entry.type, json: JSON.stringify(entry), at, card });
    this.flushSoon();
  }

  /**
   * Writes the rows added so far, in one statement. Rows storage refuses are dropped and the
   * failure thrown: the session's next summary says where it stands.
   */
  flush(): void {
    const rows = this.unwritten;
    if (rows.length === 0) return;
    try {
      // Due from when each was written: how long it waits to go with others is InboxReport's.
      this.sql.insertRows(
        ["outbox"],
        `INSERT OR REPLACE INTO outbox (type, entry, created_at, interaction_id, status, attempts, next_at, updated_at)`,
        rows.map((row) => [row.type, row.json, row.at, row.card, "pending", 0, row.at, row.at]),
      );
    } finally {
      this.unwritten = [];
    }
    // Taken only when they went in one statement (any other write since the read is not ours).
    this.kept.patch((waiting) => rows.reduce(withRow, waiting));
  }

  discard(): void {
    this.unwritten = [];
  }

  /** The oldest waiting rows, in id order, each entry as the JSON text stored for it. */
  oldest(limit: number): OutboxRow[] {
    this.flush();
    return this.sql.all<OutboxRow>(
      `SELECT id AS seq, entry FROM outbox WHERE status = 'pending' ORDER BY id LIMIT ?`,
      limit,
    );
  }

  /**
   * Leases the oldest waiting rows until `leaseUntil`, so an alarm that fires again meanwhile (or
   * after an eviction) does not send them again before then; the attempt is the oldest row's.
   */
  lease(now: number, leaseUntil: number, limit: number): OutboxBatchRows {
    this.flush();
    const rows = this.rows.leaseOldest(now, leaseUntil, limit);
    return {
      rows: rows.map((row) => ({ seq: row.id, entry: row.entry })),
      attempts: rows[0]?.attempts ?? 0,
    };
  }

  /** Rows still waiting to reach the inbox. */
  size(): number {
    this.flush();
    return this.sql.one<{ n: number }>(`SELECT COUNT(*) AS n FROM outbox WHERE status = 'pending'`)?.n ?? 0;
  }

  /** The inbox holds every row up to `seq`: they are delivered, and keep no entry. */
  acknowledge(seq: number, from = 0): void {
    this.flush();
    this.sql.run(
      ["outbox"],
      `UPDATE outbox SET status = 'delivered', entry = '', next_at = NULL, last_status = NULL, last_error = NULL,
         updated_at = ? WHERE status = 'pending' AND id BETWEEN ? AND ?`,
      this.now(),
      from,
      seq,
    );
    // Settled rows are trimmed once the ids pass a step, not on every delivery.
    if (Math.floor(Math.max(from - 1, 0) / TRIM_STEP) !== Math.floor(seq / TRIM_STEP)) {
      this.sql.run(["outbox"], `DELETE FROM outbox WHERE status != 'pending' AND id <= ?`, seq - KEPT_ROWS);
    }
  }

  /** Rows `first` through `last` were not delivered: they wait until `retryAt`, their place kept. */
  retryLater(first: number, last: number, retryAt: number, error: string): void {
    this.rows.settleRange(first, last, { status: "pending", httpStatus: null, error, retryAt });
  }

  /** The rows in the session's delivery log, newest first. */
  deliveries(limit = 200): DeliveryView[] {
    this.flush();
    return this.rows.list(limit);
  }
}

/** `waiting` after a row of `type` written at `at`: a summary replaces the one summary row. */
function withRow(waiting: Waiting, row: { type: string; at: number }): Waiting {
  const { card } = waiting;
  return row.type === "session_updated"
    ? { ...waiting, summary: row.at }
    : { ...waiting, card: card === null ? row.at : Math.min(card, row.at) };
}
