// Web Push subscriptions of a session's devices, one per device id, as the browser reported them,
// each with the session link (and share link) the device subscribed through, which owns it. An
// inbox also keeps its invited approvers' devices, held by `approver:<personId>` (APPROVER_HOLDER):
// those get only what is addressed to that approver, never the person's own pushes.
import { type PushSubscriptionJson, PushSubscriptionJson as Schema } from "../protocol/reach/notify";
import type { SqlCounter } from "../storage/sql-counter";

/** Whose token a subscription was made with: its pushes link with `url`, never the owner's. */
export interface SubscriberLink {
  /** The session URL carrying the token the device presented. */
  url: string;
  /** The share link that token belongs to; null for the owner's token. */
  linkId: string | null;
}

export interface StoredSubscription extends SubscriberLink {
  subscription: PushSubscriptionJson;
  /** Whether an approval's notification may carry Approve and Deny (on unless the person turned them off). */
  actions: boolean;
}

/** Each subscribed device costs a push per card change; a token holder cannot add them without end. */
export const MAX_PUSH_DEVICES = 20;
/** Devices one share link may subscribe, so that no single link can take every place (the owner's too). */
export const MAX_PUSH_DEVICES_PER_LINK = 5;

/** The holder of an invited approver's devices in the inviter's inbox (src/inbox/inbox-push.ts). */
export const APPROVER_HOLDER = "approver:";

export class SqlSubscriptionStore {
  /**
   * The subscribed devices, oldest first, but an approver's. Asked for every card that opens or
   * closes (whom to push to), and far less often changed; kept until `push_subscriptions` changes.
   * A copy is handed out.
   */
  private readonly keptDeviceIds: () => readonly string[];

  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {
    this.keptDeviceIds = sql.keptUntilWritten(["push_subscriptions"], () =>
      sql
        .all<{ device_id: string }>(
          `SELECT device_id FROM push_subscriptions WHERE link_id IS NULL OR link_id NOT LIKE '${APPROVER_HOLDER}%' ORDER BY at`,
        )
        .map((row) => row.device_id),
    );
  }

  /**
   * Stores (or replaces) a device's subscription, with whether its approvals' notifications carry
   * Approve and Deny (`actions`, on unless turned off); the caller has checked who may.
   */
  put(deviceId: string, subscription: PushSubscriptionJson, link: SubscriberLink, actions = true): void {
    this.sql.run(
      ["push_subscriptions"],
      `INSERT INTO push_subscriptions (device_id, subscription, url, link_id, at, actions) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (device_id) DO UPDATE SET subscription = excluded.subscription, url = excluded.url,
         link_id = excluded.link_id, at = excluded.at, actions = excluded.actions`,
      deviceId,
      JSON.stringify(subscription),
      link.url,
      link.linkId,
      this.now(),
      actions ? 1 : 0,
    );
  }

  get(deviceId: string): StoredSubscription | null {
    const row = this.sql.one<{ subscription: string; url: string; link_id: string | null; actions: number }>(
      `SELECT subscription, url, link_id, actions FROM push_subscriptions WHERE device_id = ?`,
      deviceId,
    );
    if (!row) return null;
    return {
      subscription: Schema.parse(JSON.parse(row.subscription)),
      url: row.url,
      linkId: row.link_id,
      actions: row.actions === 1,
    };
  }

  /** Who owns the device's subscription: a share link id, null for the owner, undefined when none. */
  holder(deviceId: string): string | null | undefined {
    const row = this.sql.one<{ link_id: string | null }>(
      `SELECT link_id FROM push_subscriptions WHERE device_id = ?`,
      deviceId,
    );
    return row ? row.link_id : undefined;
  }

  deviceIds(): string[] {
    return [...this.keptDeviceIds()];
  }

  /** The devices `linkId` holds (a share or inbox link, an approver), oldest first. */
  heldBy(linkId: string): string[] {
    return this.sql
      .all<{ device_id: string }>(
        `SELECT device_id FROM push_subscriptions WHERE link_id = ? ORDER BY at`,
        linkId,
      )
      .map((row) => row.device_id);
  }

  /** How many devices subscribed through share link `linkId`. */
  countByLink(linkId: string): number {
    return (
      this.sql.one<{ n: number }>(`SELECT COUNT(*) AS n FROM push_subscriptions WHERE link_id = ?`, linkId)
        ?.n ?? 0
    );
  }

  /** Removes the device's subscription; true when there was one. */
  delete(deviceId: string): boolean {
    return (
      this.sql.run(["push_subscriptions"], `DELETE FROM push_subscriptions WHERE device_id = ?`, deviceId) > 0
    );
  }

  /**
   * Removes every subscription made with the owner's token (it was rotated): only the current
   * version is ever admitted, so each was made with the version that just ended.
   */
  deleteOwners(): number {
    return this.sql.run(["push_subscriptions"], `DELETE FROM push_subscriptions WHERE link_id IS NULL`);
  }

  /** Removes every subscription made through share link `linkId` (it was revoked or expired). */
  deleteByLink(linkId: string): number {
    return this.sql.run(["push_subscriptions"], `DELETE FROM push_subscriptions WHERE link_id = ?`, linkId);
  }
}
