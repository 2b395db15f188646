// Wrong link codes sent to the bots, counted per account and over every account in a sliding
// window (rows in the channel object's SQLite): past either limit, every code is refused until the
// window frees a place, right or wrong, so guessing learns nothing while it is throttled.
import type { ChatPlatform } from "../protocol/reach/channels";

/** How long a wrong code counts. */
export const LINK_FAILURE_WINDOW_MS = 15 * 60_000;
/** Wrong codes one account may send within the window. */
export const LINK_FAILURES_PER_ACCOUNT = 5;
/** Wrong codes every account together may send within the window. */
export const LINK_FAILURES_OVERALL = 50;

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS link_failures (
    id INTEGER PRIMARY KEY AUTOINCREMENT, platform TEXT NOT NULL, account_id TEXT NOT NULL, at INTEGER NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS link_failures_by_account ON link_failures (platform, account_id, at)`,
  `CREATE INDEX IF NOT EXISTS link_failures_by_time ON link_failures (at)`,
];

/** Why codes are refused for now, and when they are taken again. */
export interface LinkThrottled {
  scope: "account" | "everyone";
  retryAt: number;
}

/** What the bot says to a throttled account: which limit, and how long to wait. */
export function throttledWords(throttled: LinkThrottled, now: number): string {
  const minutes = Math.max(1, Math.ceil((throttled.retryAt - now) / 60_000));
  const wait = `Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  return throttled.scope === "account"
    ? `Too many wrong link codes from this account. ${wait}`
    : `Too many wrong link codes were sent to Parley lately. ${wait}`;
}

export class LinkThrottle {
  constructor(
    private readonly sql: SqlStorage,
    private readonly now: () => number,
  ) {
    for (const statement of SCHEMA) sql.exec(statement);
  }

  /** Whether `accountId` may try a code now; the limit it is past otherwise. */
  refusal(platform: ChatPlatform, accountId: string): LinkThrottled | null {
    const since = this.now() - LINK_FAILURE_WINDOW_MS;
    // The limit-th most recent failure in the window leaves it (and frees a place) at `at + window`.
    const own = this.sql
      .exec<{ at: number }>(
        `SELECT at FROM link_failures WHERE platform = ? AND account_id = ? AND at > ?
         ORDER BY at DESC LIMIT 1 OFFSET ?`,
        platform,
        accountId,
        since,
        LINK_FAILURES_PER_ACCOUNT - 1,
      )
      .toArray()[0];
    if (own) return { scope: "account", retryAt: own.at + LINK_FAILURE_WINDOW_MS };
    const all = this.sql
      .exec<{ at: number }>(
        `SELECT at FROM link_failures WHERE at > ? ORDER BY at DESC LIMIT 1 OFFSET ?`,
        since,
        LINK_FAILURES_OVERALL - 1,
      )
      .toArray()[0];
    return all ? { scope: "everyone", retryAt: all.at + LINK_FAILURE_WINDOW_MS } : null;
  }

  /** Counts one wrong code from `accountId`. */
  failed(platform: ChatPlatform, accountId: string): void {
    this.sql.exec(
      `INSERT INTO link_failures (platform, account_id, at) VALUES (?, ?, ?)`,
      platform,
      accountId,
      this.now(),
    );
  }

  /** When the oldest counted failure leaves the window (the alarm then drops it); null when none. */
  nextExpiry(): number | null {
    const oldest = this.sql.exec<{ at: number | null }>(`SELECT MIN(at) AS at FROM link_failures`).one().at;
    return oldest === null ? null : oldest + LINK_FAILURE_WINDOW_MS;
  }

  /** Drops the failures that no longer count. */
  prune(now: number): void {
    this.sql.exec(`DELETE FROM link_failures WHERE at <= ?`, now - LINK_FAILURE_WINDOW_MS);
  }
}
