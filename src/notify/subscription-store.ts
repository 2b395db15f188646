// Web Push subscriptions of a session's devices, one per device id, as the browser reported them,
// each with the session link (and share link) the device subscribed through.
import { type PushSubscriptionJson, PushSubscriptionJson as Schema } from "../protocol/notify";
import type { SqlCounter } from "../session/sql-counter";

/** Whose token a subscription was made with: its pushes link with `url`, never the owner's. */
export interface SubscriberLink {
  /** The session URL carrying the token the device presented. */
  url: string;
  /** The share link that token belongs to; null for the owner's token. */
  linkId: string | null;
}

export interface StoredSubscription extends SubscriberLink {
  subscription: PushSubscriptionJson;
}

/** Each subscribed device costs a push per card change; a token holder cannot add them without end. */
export const MAX_PUSH_DEVICES = 20;

export class SqlSubscriptionStore {
  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {}

  /** Stores (or replaces) a device's subscription; false when the session already has the most devices. */
  put(deviceId: string, subscription: PushSubscriptionJson, link: SubscriberLink): boolean {
    const known = this.deviceIds();
    if (known.length >= MAX_PUSH_DEVICES && !known.includes(deviceId)) return false;
    this.sql.run(
      `INSERT INTO push_subscriptions (device_id, subscription, url, link_id, at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (device_id) DO UPDATE SET subscription = excluded.subscription, url = excluded.url,
         link_id = excluded.link_id, at = excluded.at`,
      deviceId,
      JSON.stringify(subscription),
      link.url,
      link.linkId,
      this.now(),
    );
    return true;
  }

  get(deviceId: string): StoredSubscription | null {
    const row = this.sql.one<{ subscription: string; url: string; link_id: string | null }>(
      `SELECT subscription, url, link_id FROM push_subscriptions WHERE device_id = ?`,
      deviceId,
    );
    if (!row) return null;
    return { subscription: Schema.parse(JSON.parse(row.subscription)), url: row.url, linkId: row.link_id };
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

  /** Removes every subscription made through share link `linkId` (it was revoked). */
  deleteByLink(linkId: string): number {
    return this.sql.run(`DELETE FROM push_subscriptions WHERE link_id = ?`, linkId);
  }
}
