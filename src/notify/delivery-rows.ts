// The one shape of every delivery table — pushes and webhooks (src/notify/delivery-store.ts), chat
// messages (src/inbox/inbox-chat.ts), emails (src/email/email-outbox.ts) and a session's reports to
// its inbox (src/session/inbox-report/outbox.ts): a row is its own deadline, leased while it is
// sent, settled with the one retry schedule, and listed in the same log. A channel adds columns,
// never this code.
import type { DeliveryView } from "../protocol/reach/notify";
import type { SqlCounter } from "../storage/sql-counter";

/** When a failed attempt worth retrying is tried again: the n-th retry waits the n-th delay; then it fails. */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000] as const;

export type DeliveryStatus = DeliveryView["status"];

/**
 * The columns every delivery table has, with its channel and target read under those names; a row
 * about no card (an email's code) has no interaction id.
 */
export type AnyDeliveryRow = {
  id: number;
  channel: DeliveryView["channel"];
  target: string;
  change: DeliveryView["change"];
  interaction_id: DeliveryView["interactionId"];
  status: DeliveryStatus;
  attempts: number;
  next_at: number | null;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
};

/** A row about one card: a push, a webhook call, a chat message. */
export type DeliveryRow = AnyDeliveryRow & { interaction_id: string };

export interface DeliveryTable {
  name: string;
  /** What `SELECT` reads: `*` with the table's channel and target columns named `channel` and `target`. */
  columns: string;
}

/** When attempt `attempts` (counted from 1) is retried, or null when the schedule is spent. */
export function retryAt(attempts: number, now: number): number | null {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  return delay === undefined ? null : now + delay;
}

/**
 * When attempt `attempts` of a row that must arrive in the end (a session's reports to its inbox)
 * is tried again: the same schedule, its last delay repeating.
 */
export function retryUntilDelivered(attempts: number, now: number): number {
  return now + (RETRY_DELAYS_MS[attempts - 1] ?? RETRY_DELAYS_MS[RETRY_DELAYS_MS.length - 1] ?? 0);
}

export class DeliveryRows<Row extends AnyDeliveryRow> {
  /** When the next pending row is due. Asked on every re-arm of the alarm; kept until the table changes. */
  readonly earliestDue: () => number | null;

  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
    private readonly table: DeliveryTable,
  ) {
    this.earliestDue = sql.keptUntilWritten(
      [table.name],
      () =>
        sql.one<{ d: number | null }>(`SELECT MIN(next_at) AS d FROM ${table.name} WHERE status = 'pending'`)
          ?.d ?? null,
    );
  }

  /**
   * Takes the due rows and leases them until `leaseUntil`: a row counts one more attempt and will
   * not be taken again before then, so an alarm that dies mid-send retries it later, never twice at once.
   * The rows come back with that attempt counted.
   */
  lease(now: number, leaseUntil: number, limit = 50): Row[] {
    const rows = this.sql.all<Row>(
      `SELECT ${this.table.columns} FROM ${this.table.name} WHERE status = 'pending' AND next_at <= ?
       ORDER BY next_at, id LIMIT ?`,
      now,
      limit,
    );
    for (const row of rows) {
      this.sql.run(
        [this.table.name],
        `UPDATE ${this.table.name} SET attempts = attempts + 1, next_at = ?, updated_at = ? WHERE id = ?`,
        leaseUntil,
        now,
        row.id,
      );
    }
    return rows.map((row) => ({ ...row, attempts: row.attempts + 1 }));
  }

  /** Records one attempt's outcome; `retryAt` keeps the row pending until then. */
  settle(
    id: number,
    outcome: {
      status: DeliveryStatus;
      httpStatus: number | null;
      error: string | null;
      retryAt: number | null;
    },
  ): void {
    this.sql.run(
      [this.table.name],
      `UPDATE ${this.table.name} SET status = ?, last_status = ?, last_error = ?, next_at = ?, updated_at = ? WHERE id = ?`,
      outcome.status,
      outcome.httpStatus,
      outcome.error,
      outcome.retryAt,
      this.now(),
      id,
    );
  }

  /** Settles attempt `attempts` of row `id` by the schedule: delivered, retried later, or failed. */
  settleAttempt(id: number, attempts: number, failure: { retry: boolean; message: string } | null): void {
    const next = failure?.retry ? retryAt(attempts, this.now()) : null;
    this.settle(id, {
      status: failure === null ? "delivered" : next !== null ? "pending" : "failed",
      httpStatus: null,
      error: failure?.message ?? null,
      retryAt: next,
    });
  }

  /**
   * Leases the oldest pending rows in id order, for a channel whose rows go together and in order
   * (a session's reports to its inbox): one batch, whatever each row's `next_at`, since a later row
   * must never arrive before an earlier one. The rows come back with that attempt counted.
   */
  leaseOldest(now: number, leaseUntil: number, limit: number): Row[] {
    const rows = this.sql.all<Row>(
      `SELECT ${this.table.columns} FROM ${this.table.name} WHERE status = 'pending' ORDER BY id LIMIT ?`,
      limit,
    );
    const first = rows[0];
    const last = rows[rows.length - 1];
    if (!first || !last) return [];
    this.sql.run(
      [this.table.name],
      `UPDATE ${this.table.name} SET attempts = attempts + 1, next_at = ?, updated_at = ?
       WHERE status = 'pending' AND id BETWEEN ? AND ?`,
      leaseUntil,
      now,
      first.id,
      last.id,
    );
    return rows.map((row) => ({ ...row, attempts: row.attempts + 1 }));
  }

  /** Settles the pending rows from `first` through `last` together, as `settle` settles one. */
  settleRange(first: number, last: number, outcome: Parameters<DeliveryRows<Row>["settle"]>[1]): void {
    this.sql.run(
      [this.table.name],
      `UPDATE ${this.table.name} SET status = ?, last_status = ?, last_error = ?, next_at = ?, updated_at = ?
       WHERE status = 'pending' AND id BETWEEN ? AND ?`,
      outcome.status,
      outcome.httpStatus,
      outcome.error,
      outcome.retryAt,
      this.now(),
      first,
      last,
    );
  }

  /** Gives back a leased attempt that did not happen, to be tried at `at`. */
  postpone(id: number, at: number): void {
    this.sql.run(
      [this.table.name],
      `UPDATE ${this.table.name} SET attempts = attempts - 1, next_at = ? WHERE id = ?`,
      at,
      id,
    );
  }

  /** The log, newest first. */
  list(limit = 200): DeliveryView[] {
    return this.sql
      .all<Row>(`SELECT ${this.table.columns} FROM ${this.table.name} ORDER BY id DESC LIMIT ?`, limit)
      .map((row) => ({
        id: row.id,
        channel: row.channel,
        target: row.target,
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
}

/**
 * A trigger that attempts the rows the current step stored once that step is done (its transaction
 * committed), without waiting for the alarm: `send` leases what is due, so the alarm, armed in the
 * same step, only retries what this attempt did not settle; `after` re-arms it. Never throws.
 */
export function sendAtOnce(send: () => Promise<unknown>, after: () => void): () => void {
  // INVARIANT: true while an attempt is queued. Losing it (an eviction) loses nothing: the rows
  // are stored and due, and the alarm, armed with them, sends them.
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    // A task later, not a microtask: the step's writes and its transaction end first, and a row a
    // rollback dropped is never read.
    setTimeout(() => {
      queued = false;
      send()
        .then(after)
        .catch((error: unknown) => console.error("A delivery sent at once failed", error));
    }, 0);
  };
}
