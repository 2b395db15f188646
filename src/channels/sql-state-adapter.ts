// The Chat SDK's state (update dedupe, thread locks, caches, lists, queues, subscriptions) kept in
// the channel object's own SQLite, so nothing of it lives in memory or in an outside store.
import type { Lock, QueueEntry, StateAdapter } from "chat";

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS chat_kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER)`,
  `CREATE TABLE IF NOT EXISTS chat_lists (
    id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL, value TEXT NOT NULL, expires_at INTEGER)`,
  `CREATE INDEX IF NOT EXISTS chat_lists_by_key ON chat_lists (key, id)`,
  `CREATE TABLE IF NOT EXISTS chat_locks (thread_id TEXT PRIMARY KEY, token TEXT NOT NULL, expires_at INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS chat_queue (
    id INTEGER PRIMARY KEY AUTOINCREMENT, thread_id TEXT NOT NULL, entry TEXT NOT NULL, expires_at INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS chat_subscriptions (thread_id TEXT PRIMARY KEY)`,
];

/** A `StateAdapter` over one Durable Object's SQLite; every method is one or two statements. */
export class SqlStateAdapter implements StateAdapter {
  constructor(
    private readonly sql: SqlStorage,
    private readonly now: () => number = () => Date.now(),
  ) {
    for (const statement of SCHEMA) sql.exec(statement);
  }

  async connect(): Promise<void> {}
  async disconnect(): Promise<void> {}

  async get<T = unknown>(key: string): Promise<T | null> {
    const row = this.sql
      .exec<{ value: string; expires_at: number | null }>(
        `SELECT value, expires_at FROM chat_kv WHERE key = ?`,
        key,
      )
      .toArray()[0];
    if (!row) return null;
    if (row.expires_at !== null && row.expires_at <= this.now()) {
      this.sql.exec(`DELETE FROM chat_kv WHERE key = ?`, key);
      return null;
    }
    return JSON.parse(row.value) as T;
  }

  async set<T = unknown>(key: string, value: T, ttlMs?: number): Promise<void> {
    this.sql.exec(
      `INSERT INTO chat_kv (key, value, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
      key,
      JSON.stringify(value ?? null),
      this.expiry(ttlMs),
    );
  }

  async setIfNotExists(key: string, value: unknown, ttlMs?: number): Promise<boolean> {
    // An expired value counts as absent.
    this.sql.exec(
      `DELETE FROM chat_kv WHERE key = ? AND expires_at IS NOT NULL AND expires_at <= ?`,
      key,
      this.now(),
    );
    const cursor = this.sql.exec(
      `INSERT INTO chat_kv (key, value, expires_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING`,
      key,
      JSON.stringify(value ?? null),
      this.expiry(ttlMs),
    );
    return cursor.rowsWritten > 0;
  }

  async delete(key: string): Promise<void> {
    this.sql.exec(`DELETE FROM chat_kv WHERE key = ?`, key);
  }

  async appendToList(
    key: string,
    value: unknown,
    options?: { maxLength?: number; ttlMs?: number },
  ): Promise<void> {
    const expiresAt = this.expiry(options?.ttlMs);
    this.sql.exec(
      `INSERT INTO chat_lists (key, value, expires_at) VALUES (?, ?, ?)`,
      key,
      JSON.stringify(value ?? null),
      expiresAt,
    );
    // The TTL covers the whole list, as the SDK's other adapters refresh it.
    this.sql.exec(`UPDATE chat_lists SET expires_at = ? WHERE key = ?`, expiresAt, key);
    if (options?.maxLength !== undefined) {
      this.sql.exec(
        `DELETE FROM chat_lists WHERE key = ? AND id NOT IN
           (SELECT id FROM chat_lists WHERE key = ? ORDER BY id DESC LIMIT ?)`,
        key,
        key,
        Math.max(0, options.maxLength),
      );
    }
  }

  async getList<T = unknown>(key: string): Promise<T[]> {
    this.sql.exec(
      `DELETE FROM chat_lists WHERE key = ? AND expires_at IS NOT NULL AND expires_at <= ?`,
      key,
      this.now(),
    );
    return this.sql
      .exec<{ value: string }>(`SELECT value FROM chat_lists WHERE key = ? ORDER BY id`, key)
      .toArray()
      .map((row) => JSON.parse(row.value) as T);
  }

  async acquireLock(threadId: string, ttlMs: number): Promise<Lock | null> {
    const now = this.now();
    this.sql.exec(`DELETE FROM chat_locks WHERE thread_id = ? AND expires_at <= ?`, threadId, now);
    const lock: Lock = { threadId, token: crypto.randomUUID(), expiresAt: now + ttlMs };
    const cursor = this.sql.exec(
      `INSERT INTO chat_locks (thread_id, token, expires_at) VALUES (?, ?, ?) ON CONFLICT (thread_id) DO NOTHING`,
      threadId,
      lock.token,
      lock.expiresAt,
    );
    return cursor.rowsWritten > 0 ? lock : null;
  }

  async extendLock(lock: Lock, ttlMs: number): Promise<boolean> {
    const now = this.now();
    const cursor = this.sql.exec(
      `UPDATE chat_locks SET expires_at = ? WHERE thread_id = ? AND token = ? AND expires_at > ?`,
      now + ttlMs,
      lock.threadId,
      lock.token,
      now,
    );
    return cursor.rowsWritten > 0;
  }

  async releaseLock(lock: Lock): Promise<void> {
    this.sql.exec(`DELETE FROM chat_locks WHERE thread_id = ? AND token = ?`, lock.threadId, lock.token);
  }

  async forceReleaseLock(threadId: string): Promise<void> {
    this.sql.exec(`DELETE FROM chat_locks WHERE thread_id = ?`, threadId);
  }

  async enqueue(threadId: string, entry: QueueEntry, maxSize: number): Promise<number> {
    this.sql.exec(
      `INSERT INTO chat_queue (thread_id, entry, expires_at) VALUES (?, ?, ?)`,
      threadId,
      JSON.stringify(entry),
      entry.expiresAt,
    );
    // Over the limit, the oldest entries give way.
    this.sql.exec(
      `DELETE FROM chat_queue WHERE thread_id = ? AND id NOT IN
         (SELECT id FROM chat_queue WHERE thread_id = ? ORDER BY id DESC LIMIT ?)`,
      threadId,
      threadId,
      Math.max(1, maxSize),
    );
    return this.queueDepth(threadId);
  }

  async dequeue(threadId: string): Promise<QueueEntry | null> {
    this.sql.exec(`DELETE FROM chat_queue WHERE thread_id = ? AND expires_at <= ?`, threadId, this.now());
    const row = this.sql
      .exec<{ id: number; entry: string }>(
        `SELECT id, entry FROM chat_queue WHERE thread_id = ? ORDER BY id LIMIT 1`,
        threadId,
      )
      .toArray()[0];
    if (!row) return null;
    this.sql.exec(`DELETE FROM chat_queue WHERE id = ?`, row.id);
    return JSON.parse(row.entry) as QueueEntry;
  }

  async queueDepth(threadId: string): Promise<number> {
    return (
      this.sql
        .exec<{ n: number }>(`SELECT COUNT(*) AS n FROM chat_queue WHERE thread_id = ?`, threadId)
        .toArray()[0]?.n ?? 0
    );
  }

  async subscribe(threadId: string): Promise<void> {
    this.sql.exec(`INSERT INTO chat_subscriptions (thread_id) VALUES (?) ON CONFLICT DO NOTHING`, threadId);
  }

  async unsubscribe(threadId: string): Promise<void> {
    this.sql.exec(`DELETE FROM chat_subscriptions WHERE thread_id = ?`, threadId);
  }

  async isSubscribed(threadId: string): Promise<boolean> {
    return (
      this.sql.exec(`SELECT 1 AS one FROM chat_subscriptions WHERE thread_id = ?`, threadId).toArray()
        .length > 0
    );
  }

  private expiry(ttlMs: number | undefined): number | null {
    return ttlMs === undefined || ttlMs <= 0 ? null : this.now() + ttlMs;
  }
}
