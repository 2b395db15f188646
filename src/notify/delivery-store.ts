// Delivery rows: one per (card change, push device or webhook). A row is its own deadline: the
// alarm sends every row whose `next_at` has come, and a retry is a later `next_at`.
import { type CardChange, CardNotice, type DeliveryView } from "../protocol/notify";
import type { SqlCounter } from "../storage/sql-counter";

/** Settled rows kept for the log; older ones are dropped as new ones arrive. */
const KEPT_ROWS = 500;

export type Channel = DeliveryView["channel"];
export type DeliveryStatus = DeliveryView["status"];

export interface DueDelivery {
  id: number;
  channel: Channel;
  target: string;
  attempts: number;
  notice: CardNotice;
}

type Row = {
  id: number;
  channel: Channel;
  target: string;
  change: CardChange;
  interaction_id: string;
  notice: string;
  status: DeliveryStatus;
  attempts: number;
  next_at: number | null;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
};

export class SqlDeliveryStore {
  /** When the next pending delivery is due. Asked on every re-arm of the alarm; kept until `deliveries` changes. */
  readonly earliestDue: () => number | null;

  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {
    this.earliestDue = sql.keptUntilWritten(
      ["deliveries"],
      () =>
        sql.one<{ d: number | null }>(`SELECT MIN(next_at) AS d FROM deliveries WHERE status = 'pending'`)
          ?.d ?? null,
    );
  }

  enqueue(channel: Channel, target: string, notice: CardNotice): void {
    const at = this.now();
    this.sql.run(
      ["deliveries"],
      `INSERT INTO deliveries (channel, target, change, interaction_id, notice, status, attempts, next_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
      channel,
      target,
      notice.change,
      notice.card.interactionId,
      JSON.stringify(notice),
      at,
      at,
      at,
    );
    this.sql.run(
      ["deliveries"],
      `DELETE FROM deliveries WHERE status != 'pending' AND id <= (SELECT MAX(id) FROM deliveries) - ?`,
      KEPT_ROWS,
    );
  }

  /** Devices an "opened" or "reminder" push for this card was queued for. */
  pushedDevices(interactionId: string): string[] {
    return this.sql
      .all<{ target: string }>(
        `SELECT DISTINCT target FROM deliveries WHERE channel = 'push' AND change IN ('opened', 'reminder') AND interaction_id = ?`,
        interactionId,
      )
      .map((row) => row.target);
  }

  /**
   * Takes the due rows and leases them until `leaseUntil`: a row counts one more attempt and will
   * not be taken again before then, so an alarm that dies mid-send retries it later, never twice at once.
   */
  lease(now: number, leaseUntil: number, limit = 50): DueDelivery[] {
    const rows = this.sql.all<Row>(
      `SELECT * FROM deliveries WHERE status = 'pending' AND next_at <= ? ORDER BY next_at, id LIMIT ?`,
      now,
      limit,
    );
    for (const row of rows) {
      this.sql.run(
        ["deliveries"],
        `UPDATE deliveries SET attempts = attempts + 1, next_at = ?, updated_at = ? WHERE id = ?`,
        leaseUntil,
        now,
        row.id,
      );
    }
    return rows.map((row) => ({
      id: row.id,
      channel: row.channel,
      target: row.target,
      attempts: row.attempts + 1,
      notice: CardNotice.parse(JSON.parse(row.notice)),
    }));
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
      ["deliveries"],
      `UPDATE deliveries SET status = ?, last_status = ?, last_error = ?, next_at = ?, updated_at = ? WHERE id = ?`,
      outcome.status,
      outcome.httpStatus,
      outcome.error,
      outcome.retryAt,
      this.now(),
      id,
    );
  }

  /** The log, newest first. */
  list(limit = 200): DeliveryView[] {
    return this.sql.all<Row>(`SELECT * FROM deliveries ORDER BY id DESC LIMIT ?`, limit).map((row) => ({
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
