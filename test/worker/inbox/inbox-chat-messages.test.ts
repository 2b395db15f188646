// A reply in chat names the platform's id of the message it answers; the inbox finds that card's
// message by an index, reading a few rows however many messages the person was sent, and an inbox
// made before the index gains it on upgrade with its links and messages kept.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ChatMessages } from "../../../src/inbox/inbox-chat-messages";
import { MIGRATIONS, migrateInbox } from "../../../src/inbox/inbox-schema";
import { SqlCounter } from "../../../src/storage/sql-counter";
import { runInDurableObject } from "../../helpers/run-in-object";

const SESSION = `ses_${"m".repeat(24)}`;

/** Takes the inbox back to the version before the index, as an inbox made then stands. */
function beforeTheIndex(sql: SqlStorage): void {
  sql.exec(`DROP INDEX chat_deliveries_by_message`);
  const index = MIGRATIONS.findIndex((statements) =>
    statements.some((statement) => statement.includes("chat_deliveries_by_message")),
  );
  sql.exec(`ALTER TABLE chat_links DROP COLUMN approver_id`);
  sql.exec(`UPDATE meta SET value = ? WHERE key = 'schema_version'`, String(index));
}

/** A session, a linked account and `count` card messages sent to it, the n-th with platform id `42:<n>`. */
function seed(sql: SqlStorage, count: number): void {
  sql.exec(
    `INSERT INTO sessions (session_id, applied_seq, status, title, agent, created_at, last_activity)
     VALUES (?, 1, 'running', 'Release notes', 'default', 1, 1)`,
    SESSION,
  );
  sql.exec(
    `INSERT INTO chat_links (link_id, platform, account_id, name, thread_id, origin)
     VALUES ('link_ada', 'telegram', '42', 'Ada', '42', 'https://parley.test')`,
  );
  for (let n = 1; n <= count; n += 1) {
    sql.exec(
      `INSERT INTO chat_deliveries (platform, link_id, thread_id, session_id, interaction_id, change, payload,
         status, attempts, next_at, message_id, created_at, updated_at)
       VALUES ('telegram', 'link_ada', '42', ?, ?, 'opened', '{}', 'delivered', 1, NULL, ?, 1, 1)`,
      SESSION,
      `toolu_${n}`,
      `42:${n}`,
    );
  }
}

function inbox() {
  return env.INBOXES.get(env.INBOXES.newUniqueId());
}

describe("a reply's card message", () => {
  it("is found by its platform id reading a few rows, not every message the person was sent", () =>
    runInDurableObject(inbox(), (_object, state) => {
      migrateInbox(state.storage.sql);
      seed(state.storage.sql, 300);
      const sql = new SqlCounter(state.storage.sql);
      const messages = new ChatMessages(sql);

      const before = sql.rowsRead;
      expect(messages.sessionOfMessage("link_ada", "42:250")).toEqual({
        sessionId: SESSION,
        title: "Release notes",
      });
      expect(sql.rowsRead - before).toBeLessThanOrEqual(3);
      // Another account's link, or a message never sent, finds nothing.
      expect(messages.sessionOfMessage("link_eve", "42:250")).toBeNull();
      expect(messages.sessionOfMessage("link_ada", "42:301")).toBeNull();
    }));

  it("is indexed in an inbox made before the index once it upgrades, which keeps its links and messages", () =>
    runInDurableObject(inbox(), (_object, state) => {
      const indexed = (name: string) =>
        state.storage.sql
          .exec(`SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?`, name)
          .toArray().length > 0;
      migrateInbox(state.storage.sql);
      beforeTheIndex(state.storage.sql);
      seed(state.storage.sql, 300);
      expect(indexed("chat_deliveries_by_message")).toBe(false);
      const sql = new SqlCounter(state.storage.sql);
      const before = sql.rowsRead;
      new ChatMessages(sql).sessionOfMessage("link_ada", "42:250");
      // Without the index the lookup reads every message of the person.
      expect(sql.rowsRead - before).toBeGreaterThanOrEqual(300);

      migrateInbox(state.storage.sql);
      expect(indexed("chat_deliveries_by_message")).toBe(true);
      const links = state.storage.sql.exec(`SELECT link_id, account_id FROM chat_links`).toArray();
      expect(links).toEqual([{ link_id: "link_ada", account_id: "42" }]);
      const after = sql.rowsRead;
      expect(new ChatMessages(sql).sessionOfMessage("link_ada", "42:250")?.sessionId).toBe(SESSION);
      expect(sql.rowsRead - after).toBeLessThanOrEqual(3);
    }));
});
