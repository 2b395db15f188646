// Channel state per platform: a channel object made when every platform's Chat SDK state shared one
// set of tables moves it to each platform's own when it starts again, keeps its linked accounts, and
// a linked account's press still answers its card.
import { describe, expect, it } from "vitest";
import { platformNamedIn } from "../../../src/channels/sql-state-adapter";
import { runInDurableObject } from "../../helpers/run-in-object";
import { Person } from "../inbox/inbox-fixtures";
import { channelObject, openApproval } from "./chat-fixtures";
import {
  buttonsOf,
  callsTo,
  lastCard,
  link,
  pressFrom,
  sendUpdate,
  sentTo,
} from "./telegram/telegram-fixtures";

const SHARED = ["chat_kv", "chat_lists", "chat_locks", "chat_queue", "chat_subscriptions"];

/** Puts the channel object's Chat SDK state back in the tables every platform once shared; its rows, by key. */
function shareState(sql: SqlStorage): string[] {
  sql.exec(`CREATE TABLE chat_kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER)`);
  sql.exec(`CREATE TABLE chat_lists (
    id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL, value TEXT NOT NULL, expires_at INTEGER)`);
  sql.exec(
    `CREATE TABLE chat_locks (thread_id TEXT PRIMARY KEY, token TEXT NOT NULL, expires_at INTEGER NOT NULL)`,
  );
  sql.exec(`CREATE TABLE chat_queue (
    id INTEGER PRIMARY KEY AUTOINCREMENT, thread_id TEXT NOT NULL, entry TEXT NOT NULL, expires_at INTEGER NOT NULL)`);
  sql.exec(`CREATE TABLE chat_subscriptions (thread_id TEXT PRIMARY KEY)`);
  sql.exec(`INSERT INTO chat_kv (key, value, expires_at) SELECT key, value, expires_at FROM chat_state_kv`);
  sql.exec(
    `INSERT INTO chat_lists (key, value, expires_at) SELECT key, value, expires_at FROM chat_state_lists`,
  );
  sql.exec(`INSERT INTO chat_subscriptions (thread_id) SELECT thread_id FROM chat_state_subscriptions`);
  for (const table of ["kv", "lists", "locks", "queue", "subscriptions"])
    sql.exec(`DROP TABLE chat_state_${table}`);
  return sql
    .exec<{ key: string }>(`SELECT key FROM chat_kv UNION ALL SELECT thread_id FROM chat_subscriptions`)
    .toArray()
    .map((row) => row.key);
}

/** Every row of the platforms' own state, with its platform. */
function ownState(sql: SqlStorage): { platform: string; key: string }[] {
  return sql
    .exec<{ platform: string; key: string }>(
      `SELECT platform, key FROM chat_state_kv UNION ALL SELECT platform, thread_id FROM chat_state_subscriptions`,
    )
    .toArray();
}

describe("channel state per platform", { timeout: 60_000 }, () => {
  it("moves an older object's shared state to each platform's own on restart, keeping its links and their presses", async () => {
    const hal = new Person("hal.state@example.com");
    const user = { id: 5701, first_name: "Hal" };
    await link(hal, user);
    await openApproval(hal, "toolu_tg_state");
    await sentTo(hal, user.id, "sendMessage", 2);
    const approve = buttonsOf(await lastCard(user.id)).Approve!;

    // The object as it stood before the split; then it restarts, as after a deploy.
    const shared = await runInDurableObject(channelObject(), (_, state) => shareState(state.storage.sql));
    await runInDurableObject(channelObject(), (_, state) => state.abort("restart")).catch(() => {});

    const links = (await (await hal.api("GET", "/api/channels/links")).json()) as { links: unknown[] };
    expect(links.links).toEqual([
      expect.objectContaining({ platform: "telegram", accountId: String(user.id) }),
    ]);
    expect((await sendUpdate(pressFrom(user, 1, approve))).status).toBe(200);
    expect((await callsTo(user.id, "editMessageText")).at(-1)?.body.text).toBe("Approved by Hal · Telegram");

    const left = await runInDurableObject(channelObject(), (_, state) => ({
      shared: state.storage.sql
        .exec(
          `SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${SHARED.map(() => "?").join(", ")})`,
          ...SHARED,
        )
        .toArray(),
      own: ownState(state.storage.sql),
    }));
    expect(left.shared).toEqual([]);
    // Every row that named its platform moved to that platform's own, and only there.
    const moved = new Map(left.own.map((row) => [row.key, row.platform]));
    for (const key of shared) {
      const named = platformNamedIn(key);
      if (named) expect(moved.get(key), key).toBe(named);
    }
    for (const row of left.own) expect(platformNamedIn(row.key), row.key).toBe(row.platform);
  });
});
