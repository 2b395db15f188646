// The Chat SDK's state (update dedupe, thread locks, caches, lists, queues, subscriptions) kept in
// the channel object's own SQLite, so nothing of it lives in memory or in an outside store; each
// platform's bot has its own, so one platform's state is never another's (and can be cleared alone).
import type { Lock, QueueEntry, StateAdapter } from "chat";
import type { ChatPlatform } from "../protocol/reach/channels";

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS chat_state_kv (
    platform TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, expires_at INTEGER, PRIMARY KEY (platform, key))`,
  `CREATE TABLE IF NOT EXISTS chat_state_lists (
    id INTEGER PRIMARY KEY AUTOINCREMENT, platform TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
    expires_at INTEGER)`,
  `CREATE INDEX IF NOT EXISTS chat_state_lists_by_key ON chat_state_lists (platform, key, id)`,
  `CREATE TABLE IF NOT EXISTS chat_state_locks (
    platform TEXT NOT NULL, thread_id TEXT NOT NULL, token TEXT NOT NULL, expires_at INTEGER NOT NULL,
    PRIMARY KEY (platform, thread_id))`,
  `CREATE TABLE IF NOT EXISTS chat_state_queue (
    id INTEGER PRIMARY KEY AUTOINCREMENT, platform TEXT NOT NULL, thread_id TEXT NOT NULL, entry TEXT NOT NULL,
    expires_at INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS chat_state_subscriptions (
    platform TEXT NOT NULL, thread_id TEXT NOT NULL, PRIMARY KEY (platform, thread_id))`,
];

/**
 * The tables every platform once shared, and how each row moves to its platform's: the SDK names
 * the platform in every key it writes (`dedupe:telegram:…`, `thread-state:slack:…`) and in every
 * thread id. A row that names none is a cache entry no platform can claim; it is dropped.
 */
const SHARED_TABLES = [
  { from: "chat_kv", to: "chat_state_kv", named: "key", columns: "key, value, expires_at" },
  { from: "chat_lists", to: "chat_state_lists", named: "key", columns: "key, value, expires_at" },
  { from: "chat_locks", to: "chat_state_locks", named: "thread_id", columns: "thread_id, token, expires_at" },
  { from: "chat_queue", to: "chat_state_queue", named: "thread_id", columns: "thread_id, entry, expires_at" },
  { from: "chat_subscriptions", to: "chat_state_subscriptions", named: "thread_id", columns: "thread_id" },
] as const;

/** The platform a shared row's key or thread id names first; null when it names none. */
export function platformNamedIn(text: string): ChatPlatform | null {
  const named = /(telegram|slack|discord):/.exec(text);
  return (named?.[1] as ChatPlatform | undefined) ?? null;
}

/**
 * Moves the rows of the tables all platforms shared to each platform's own, then drops the shared
 * ones. Safe to repeat: a move cut short copies nothing twice and finishes on the next start.
 */
function splitSharedState(sql: SqlStorage): void {
  for (const table of SHARED_TABLES) {
    const exists = sql
      .exec(`SELECT 1 AS one FROM sqlite_master WHERE type = 'table' AND name = ?`, table.from)
      .toArray();
    if (exists.length === 0) continue;
    const rows = sql.exec<Record<string, string | number | null>>(`SELECT * FROM ${table.from}`).toArray();
    const names = table.columns.split(", ");
    for (const row of rows) {
      const platform = platformNamedIn(String(row[table.named]));
      if (!platform) continue;
      sql.exec(
        `INSERT OR IGNORE INTO ${table.to} (platform, ${table.columns}) VALUES (?, ${names.map(() => "?").join(", ")})`,
        platform,
        ...names.map((name) => row[name] ?? null),
      );
    }
    sql.exec(`DROP TABLE ${table.from}`);
  }
}

/** A `StateAdapter` for one platform's bot over one Durable Object's SQLite; every method is one or two statements. */
export class SqlStateAdapter implements StateAdapter {
  constructor(
    private readonly sql: SqlStorage,
    private readonly platform: ChatPlatform,
    private readonly now: () => number = () => Date.now(),
  ) {
    for (const statement of SCHEMA) sql.exec(statement);
    splitSharedState(sql);
  }

  async connect(): Promise<void> {}
  async disconnect(): Promise<void> {}

  async get<T = unknown>(key: string): Promise<T | null> {
    const row = this.sql
      .exec<{ value: string; expires_at: number | null }>(
        `SELECT value, expires_at FROM chat_state_kv WHERE platform = ? AND key = ?`,
        this.platform,
        key,
      )
      .toArray()[0];
    if (!row) return null;
    if (row.expires_at !== null && row.expires_at <= this.now()) {
      this.sql.exec(`DELETE FROM chat_state_kv WHERE platform = ? AND key = ?`, this.platform, key);
      return null;
    }
    return JSON.parse(row.value) as T;
  }

  async set<T = unknown>(key: string, value: T, ttlMs?: number): Promise<void> {
    this.sql.exec(
      `INSERT INTO chat_state_kv (platform, key, value, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (platform, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
      this.platform,
      key,
      JSON.stringify(value ?? null),
      this.expiry(ttlMs),
    );
  }

  async setIfNotExists(key: string, value: unknown, ttlMs?: number): Promise<boolean> {
    // An expired value counts as absent.
    this.sql.exec(
      `DELETE FROM chat_state_kv WHERE platform = ? AND key = ? AND expires_at IS NOT NULL AND expires_at <= ?`,
      this.platform,
      key,
      this.now(),
    );
    const cursor = this.sql.exec(
      `INSERT INTO chat_state_kv (platform, key, value, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (platform, key) DO NOTHING`,
      this.platform,
      key,
      JSON.stringify(value ?? null),
      this.expiry(ttlMs),
    );
    return cursor.rowsWritten > 0;
  }

  async delete(key: string): Promise<void> {
    this.sql.exec(`DELETE FROM chat_state_kv WHERE platform = ? AND key = ?`, this.platform, key);
  }

  async appendToList(
    key: string,
    value: unknown,
    options?: { maxLength?: number; ttlMs?: number },
  ): Promise<void> {
    const expiresAt = this.expiry(options?.ttlMs);
    this.sql.exec(
      `INSERT INTO chat_state_lists (platform, key, value, expires_at) VALUES (?, ?, ?, ?)`,
      this.platform,
      key,
      JSON.stringify(value ?? null),
      expiresAt,
    );
    // The TTL covers the whole list, as the SDK's other adapters refresh it.
    this.sql.exec(
      `UPDATE chat_state_lists SET expires_at = ? WHERE platform = ? AND key = ?`,
      expiresAt,
      this.platform,
      key,
    );
    if (options?.maxLength !== undefined) {
      this.sql.exec(
        `DELETE FROM chat_state_lists WHERE platform = ? AND key = ? AND id NOT IN
           (SELECT id FROM chat_state_lists WHERE platform = ? AND key = ? ORDER BY id DESC LIMIT ?)`,
        this.platform,
        key,
        this.platform,
        key,
        Math.max(0, options.maxLength),
      );
    }
  }

  async getList<T = unknown>(key: string): Promise<T[]> {
    this.sql.exec(
      `DELETE FROM chat_state_lists WHERE platform = ? AND key = ? AND expires_at IS NOT NULL AND expires_at <= ?`,
      this.platform,
      key,
      this.now(),
    );
    return this.sql
      .exec<{ value: string }>(
        `SELECT value FROM chat_state_lists WHERE platform = ? AND key = ? ORDER BY id`,
        this.platform,
        key,
      )
      .toArray()
      .map((row) => JSON.parse(row.value) as T);
  }

  async acquireLock(threadId: string, ttlMs: number): Promise<Lock | null> {
    const now = this.now();
    this.sql.exec(
      `DELETE FROM chat_state_locks WHERE platform = ? AND thread_id = ? AND expires_at <= ?`,
      this.platform,
      threadId,
      now,
    );
    const lock: Lock = { threadId, token: crypto.randomUUID(), expiresAt: now + ttlMs };
    const cursor = this.sql.exec(
      `INSERT INTO chat_state_locks (platform, thread_id, token, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (platform, thread_id) DO NOTHING`,
      this.platform,
      threadId,
      lock.token,
      lock.expiresAt,
    );
    return cursor.rowsWritten > 0 ? lock : null;
  }

  async extendLock(lock: Lock, ttlMs: number): Promise<boolean> {
    const now = this.now();
    const cursor = this.sql.exec(
      `UPDATE chat_state_locks SET expires_at = ? WHERE platform = ? AND thread_id = ? AND token = ? AND expires_at > ?`,
      now + ttlMs,
      this.platform,
      lock.threadId,
      lock.token,
      now,
    );
    return cursor.rowsWritten > 0;
  }

  async releaseLock(lock: Lock): Promise<void> {
    this.sql.exec(
      `DELETE FROM chat_state_locks WHERE platform = ? AND thread_id = ? AND token = ?`,
      this.platform,
      lock.threadId,
      lock.token,
    );
  }

  async forceReleaseLock(threadId: string): Promise<void> {
    this.sql.exec(
      `DELETE FROM chat_state_locks WHERE platform = ? AND thread_id = ?`,
      this.platform,
      threadId,
    );
  }

  async enqueue(threadId: string, entry: QueueEntry, maxSize: number): Promise<number> {
    this.sql.exec(
      `INSERT INTO chat_state_queue (platform, thread_id, entry, expires_at) VALUES (?, ?, ?, ?)`,
      this.platform,
      threadId,
      JSON.stringify(entry),
      entry.expiresAt,
    );
    // Over the limit, the oldest entries give way.
    this.sql.exec(
      `DELETE FROM chat_state_queue WHERE platform = ? AND thread_id = ? AND id NOT IN
         (SELECT id FROM chat_state_queue WHERE platform = ? AND thread_id = ? ORDER BY id DESC LIMIT ?)`,
      this.platform,
      threadId,
      this.platform,
      threadId,
      Math.max(1, maxSize),
    );
    return this.queueDepth(threadId);
  }

  async dequeue(threadId: string): Promise<QueueEntry | null> {
    this.sql.exec(
      `DELETE FROM chat_state_queue WHERE platform = ? AND thread_id = ? AND expires_at <= ?`,
      this.platform,
      threadId,
      this.now(),
    );
    const row = this.sql
      .exec<{ id: number; entry: string }>(
        `SELECT id, entry FROM chat_state_queue WHERE platform = ? AND thread_id = ? ORDER BY id LIMIT 1`,
        this.platform,
        threadId,
      )
      .toArray()[0];
    if (!row) return null;
    this.sql.exec(`DELETE FROM chat_state_queue WHERE id = ?`, row.id);
    return JSON.parse(row.entry) as QueueEntry;
  }

  async queueDepth(threadId: string): Promise<number> {
    return (
      this.sql
        .exec<{ n: number }>(
          `SELECT COUNT(*) AS n FROM chat_state_queue WHERE platform = ? AND thread_id = ?`,
          this.platform,
          threadId,
        )
        .toArray()[0]?.n ?? 0
    );
  }

  async subscribe(threadId: string): Promise<void> {
    this.sql.exec(
      `INSERT INTO chat_state_subscriptions (platform, thread_id) VALUES (?, ?) ON CONFLICT DO NOTHING`,
      this.platform,
      threadId,
    );
  }

  async unsubscribe(threadId: string): Promise<void> {
    this.sql.exec(
      `DELETE FROM chat_state_subscriptions WHERE platform = ? AND thread_id = ?`,
      this.platform,
      threadId,
    );
  }

  async isSubscribed(threadId: string): Promise<boolean> {
    return (
      this.sql
        .exec(
          `SELECT 1 AS one FROM chat_state_subscriptions WHERE platform = ? AND thread_id = ?`,
          this.platform,
          threadId,
        )
        .toArray().length > 0
    );
  }

  private expiry(ttlMs: number | undefined): number | null {
    return ttlMs === undefined || ttlMs <= 0 ? null : this.now() + ttlMs;
  }
}
