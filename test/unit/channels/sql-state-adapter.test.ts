// The Chat SDK's StateAdapter contract (as its interface documents each method) held by the SQLite
// adapter, in a real Durable Object's storage, with a clock the test moves.
import { env } from "cloudflare:workers";
import type { QueueEntry } from "chat";
import { describe, expect, it } from "vitest";
import { SqlStateAdapter } from "../../../src/channels/sql-state-adapter";
import { runInDurableObject } from "../../helpers/run-in-object";

async function withAdapter(
  test: (state: SqlStateAdapter, clock: { now: number }) => Promise<void>,
): Promise<void> {
  const stub = env.CHANNELS.get(env.CHANNELS.idFromName(`state-${crypto.randomUUID()}`));
  await runInDurableObject(stub, async (_, state) => {
    const clock = { now: 1_000_000 };
    await test(new SqlStateAdapter(state.storage.sql, "telegram", () => clock.now), clock);
  });
}

function entry(text: string, expiresAt: number): QueueEntry {
  return { enqueuedAt: 0, expiresAt, message: { text } as unknown as QueueEntry["message"] };
}

describe("SqlStateAdapter", () => {
  it("keeps values until their TTL passes, and sets a missing key only once", () =>
    withAdapter(async (state, clock) => {
      await state.set("a", { n: 1 }, 1_000);
      expect(await state.get("a")).toEqual({ n: 1 });
      expect(await state.setIfNotExists("a", 2)).toBe(false);
      clock.now += 1_000;
      expect(await state.get("a")).toBeNull();
      expect(await state.setIfNotExists("a", 2)).toBe(true);
      expect(await state.setIfNotExists("a", 3)).toBe(false);
      expect(await state.get("a")).toBe(2);
      await state.delete("a");
      expect(await state.get("a")).toBeNull();
    }));

  it("appends to lists in order, keeps only the newest maxLength and drops a list whose TTL passed", () =>
    withAdapter(async (state, clock) => {
      for (const n of [1, 2, 3, 4]) await state.appendToList("l", n, { maxLength: 3, ttlMs: 500 });
      expect(await state.getList("l")).toEqual([2, 3, 4]);
      expect(await state.getList("other")).toEqual([]);
      clock.now += 500;
      expect(await state.getList("l")).toEqual([]);
    }));

  it("gives a thread's lock to one holder at a time, extends only the holder's and frees it on release or expiry", () =>
    withAdapter(async (state, clock) => {
      const lock = await state.acquireLock("t", 1_000);
      expect(lock).not.toBeNull();
      expect(await state.acquireLock("t", 1_000)).toBeNull();
      expect(await state.extendLock({ ...lock!, token: "someone-else" }, 1_000)).toBe(false);
      expect(await state.extendLock(lock!, 5_000)).toBe(true);
      clock.now += 2_000;
      expect(await state.acquireLock("t", 1_000)).toBeNull();
      await state.releaseLock({ ...lock!, token: "someone-else" });
      expect(await state.acquireLock("t", 1_000)).toBeNull();
      await state.releaseLock(lock!);
      const next = await state.acquireLock("t", 1_000);
      expect(next).not.toBeNull();
      clock.now += 1_000;
      expect(await state.extendLock(next!, 1_000)).toBe(false);
      await state.forceReleaseLock("t");
      expect(await state.acquireLock("t", 1_000)).not.toBeNull();
    }));

  it("queues a thread's messages first in first out, up to maxSize, and skips expired ones", () =>
    withAdapter(async (state, clock) => {
      expect(await state.enqueue("t", entry("one", clock.now + 10), 2)).toBe(1);
      expect(await state.enqueue("t", entry("two", clock.now + 10_000), 2)).toBe(2);
      expect(await state.enqueue("t", entry("three", clock.now + 10_000), 2)).toBe(2);
      expect(await state.queueDepth("t")).toBe(2);
      expect((await state.dequeue("t"))?.message).toEqual({ text: "two" });
      clock.now += 20_000;
      expect(await state.dequeue("t")).toBeNull();
      expect(await state.queueDepth("t")).toBe(0);
    }));

  it("remembers subscriptions until unsubscribed", () =>
    withAdapter(async (state) => {
      expect(await state.isSubscribed("t")).toBe(false);
      await state.subscribe("t");
      await state.subscribe("t");
      expect(await state.isSubscribed("t")).toBe(true);
      await state.unsubscribe("t");
      expect(await state.isSubscribed("t")).toBe(false);
    }));

  it("keeps each platform's state apart: one platform's key, list, lock and subscription are not another's", async () => {
    const stub = env.CHANNELS.get(env.CHANNELS.idFromName(`state-${crypto.randomUUID()}`));
    await runInDurableObject(stub, async (_, state) => {
      const telegram = new SqlStateAdapter(state.storage.sql, "telegram");
      const slack = new SqlStateAdapter(state.storage.sql, "slack");
      await telegram.set("k", "telegram's");
      expect(await slack.get("k")).toBeNull();
      expect(await slack.setIfNotExists("k", "slack's")).toBe(true);
      expect(await telegram.get("k")).toBe("telegram's");
      await telegram.appendToList("l", 1);
      expect(await slack.getList("l")).toEqual([]);
      expect(await telegram.acquireLock("t", 1_000)).not.toBeNull();
      expect(await slack.acquireLock("t", 1_000)).not.toBeNull();
      await telegram.subscribe("t");
      expect(await slack.isSubscribed("t")).toBe(false);
      await slack.delete("k");
      expect(await telegram.get("k")).toBe("telegram's");
    });
  });

  it("moves the state every platform shared to each platform's own on upgrade, and drops what names none", async () => {
    const stub = env.CHANNELS.get(env.CHANNELS.idFromName(`state-${crypto.randomUUID()}`));
    await runInDurableObject(stub, async (_, state) => {
      const sql = state.storage.sql;
      // The tables as they were when every platform shared them, with what the SDK wrote there.
      sql.exec(`CREATE TABLE chat_kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER)`);
      sql.exec(`CREATE TABLE chat_lists (
        id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL, value TEXT NOT NULL, expires_at INTEGER)`);
      sql.exec(
        `CREATE TABLE chat_locks (thread_id TEXT PRIMARY KEY, token TEXT NOT NULL, expires_at INTEGER NOT NULL)`,
      );
      sql.exec(`CREATE TABLE chat_queue (
        id INTEGER PRIMARY KEY AUTOINCREMENT, thread_id TEXT NOT NULL, entry TEXT NOT NULL, expires_at INTEGER NOT NULL)`);
      sql.exec(`CREATE TABLE chat_subscriptions (thread_id TEXT PRIMARY KEY)`);
      sql.exec(`INSERT INTO chat_kv (key, value) VALUES ('dedupe:telegram:7', 'true'), ('thread-state:slack:D1:', '{"a":1}'),
        ('__cb:orphan', '1')`);
      sql.exec(`INSERT INTO chat_lists (key, value) VALUES ('channel-state:slack:D1', '2')`);
      sql.exec(`INSERT INTO chat_subscriptions (thread_id) VALUES ('telegram:42')`);

      const telegram = new SqlStateAdapter(sql, "telegram");
      const slack = new SqlStateAdapter(sql, "slack");
      expect(await telegram.get("dedupe:telegram:7")).toBe(true);
      expect(await slack.get("dedupe:telegram:7")).toBeNull();
      expect(await slack.get("thread-state:slack:D1:")).toEqual({ a: 1 });
      expect(await slack.getList("channel-state:slack:D1")).toEqual([2]);
      expect(await telegram.isSubscribed("telegram:42")).toBe(true);
      expect(await slack.isSubscribed("telegram:42")).toBe(false);
      // A cache entry that names no platform is no platform's.
      expect(await telegram.get("__cb:orphan")).toBeNull();
      expect(await slack.get("__cb:orphan")).toBeNull();
      const shared = sql
        .exec(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN
          ('chat_kv', 'chat_lists', 'chat_locks', 'chat_queue', 'chat_subscriptions')`)
        .toArray();
      expect(shared).toEqual([]);
    });
  });
});
