// Push and webhook delivery rows: one per (card change, push device or webhook). A row is its own
// deadline: the alarm sends every row whose `next_at` has come, and a retry is a later `next_at`
// (the rows' shared shape and schedule: src/notify/delivery-rows.ts).
import { CardNotice, type DeliveryView } from "../protocol/reach/notify";
import type { SqlCounter } from "../storage/sql-counter";
import { type DeliveryRow, DeliveryRows, type DeliveryStatus } from "./delivery-rows";

export type { DeliveryStatus };

/** Settled rows kept for the log; older ones are dropped as new ones arrive. */
const KEPT_ROWS = 500;

export type Channel = "push" | "webhook";

export interface DueDelivery {
  id: number;
  channel: Channel;
  target: string;
  attempts: number;
  notice: CardNotice;
}

type Row = DeliveryRow & { channel: Channel; notice: string };

export class SqlDeliveryStore {
  private readonly rows: DeliveryRows<Row>;
  /** When the next pending delivery is due. Asked on every re-arm of the alarm; kept until `deliveries` changes. */
  readonly earliestDue: () => number | null;

  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {
    this.rows = new DeliveryRows(sql, now, { name: "deliveries", columns: "*" });
    this.earliestDue = this.rows.earliestDue;
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

  /** Takes the due rows, leased until `leaseUntil` (DeliveryRows.lease). */
  lease(now: number, leaseUntil: number, limit = 50): DueDelivery[] {
    return this.rows.lease(now, leaseUntil, limit).map((row) => ({
      id: row.id,
      channel: row.channel,
      target: row.target,
      attempts: row.attempts,
      notice: CardNotice.parse(JSON.parse(row.notice)),
    }));
  }

  /** Records one attempt's outcome; `retryAt` keeps the row pending until then. */
  settle(id: number, outcome: Parameters<DeliveryRows<Row>["settle"]>[1]): void {
    this.rows.settle(id, outcome);
  }

  /** The log, newest first. */
  list(limit = 200): DeliveryView[] {
    return this.rows.list(limit);
  }
}
