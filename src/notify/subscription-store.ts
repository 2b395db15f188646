// Web Push subscriptions of a session's devices, one per device id, as the browser reported them.
import { type PushSubscriptionJson, PushSubscriptionJson as Schema } from "../protocol/notify";
import type { SqlCounter } from "../session/sql-counter";

export class SqlSubscriptionStore {
  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {}

  put(deviceId: string, subscription: PushSubscriptionJson): void {
    this.sql.run(
      `INSERT INTO push_subscriptions (device_id, subscription, at) VALUES (?, ?, ?)
       ON CONFLICT (device_id) DO UPDATE SET subscription = excluded.subscription, at = excluded.at`,
      deviceId,
      JSON.stringify(subscription),
      this.now(),
    );
  }

  get(deviceId: string): PushSubscriptionJson | null {
    const row = this.sql.one<{ subscription: string }>(
      `SELECT subscription FROM push_subscriptions WHERE device_id = ?`,
      deviceId,
    );
    return row ? Schema.parse(JSON.parse(row.subscription)) : null;
  }

  deviceIds(): string[] {
    return this.sql
      .all<{ device_id: string }>(`SELECT device_id FROM push_subscriptions ORDER BY at`)
      .map((row) => row.device_id);
  }

  /** Removes the device's subscription; true when there was one. */
  delete(deviceId: string): boolean {
    return this.sql.run(`DELETE FROM push_subscriptions WHERE device_id = ?`, deviceId) > 0;
  }
}
