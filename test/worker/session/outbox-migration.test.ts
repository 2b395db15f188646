// A session's outbox written before its rows took the one delivery shape: the rows still waiting
// keep their order, their entries and the queue's retry (now each row's own), and a new row never
// takes a seq the inbox may already have applied.
import { describe, expect, it } from "vitest";
import { SqlOutbox } from "../../../src/session/inbox-report/outbox";
import type { SessionObject } from "../../../src/session/session-object";
import { migrate } from "../../../src/session/stores/schema";
import { SqlCounter } from "../../../src/storage/sql-counter";
import { runInDurableObject } from "../../helpers/run-in-object";
import { createSession } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";

const OPENED = JSON.stringify({
  type: "card_opened",
  card: {
    interactionId: "toolu_waiting",
    toolCallId: "toolu_waiting",
    kind: "approval",
    toolName: "Bash",
    request: { command: "ls" },
    createdAt: 100,
    expiresAt: 900,
  },
});
const SUMMARY = JSON.stringify({
  type: "session_updated",
  session: { status: "awaiting_input", title: null, agent: "Parley", createdAt: 1, lastActivity: 110 },
});
const RESOLVED = JSON.stringify({
  type: "card_resolved",
  interactionId: "toolu_waiting",
  outcome: "cancelled",
  resolvedBy: null,
  resolvedAt: 120,
});

describe("a session outbox stored before its rows took the delivery shape", () => {
  it("keeps its waiting rows, in order, with the retry it was waiting for, and never reuses a seq", async () => {
    const session = await createSession();
    const after = await runInDurableObject<SessionObject, unknown>(stubOf(session), (_instance, state) => {
      const sql = state.storage.sql;
      // The outbox as version 18 stored it: three rows waiting (one more already delivered and
      // deleted, so the next seq is 10), and a failed delivery's retry kept in meta.
      sql.exec(`DROP TABLE outbox`);
      sql.exec(
        `CREATE TABLE outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, entry TEXT NOT NULL, at INTEGER NOT NULL)`,
      );
      sql.exec(`CREATE UNIQUE INDEX outbox_one_summary ON outbox (type) WHERE type = 'session_updated'`);
      sql.exec(
        `INSERT INTO outbox (seq, type, entry, at) VALUES (6, 'card_opened', ?, 100), (7, 'card_opened', ?, 100),
           (8, 'session_updated', ?, 110), (9, 'card_resolved', ?, 120)`,
        OPENED,
        OPENED,
        SUMMARY,
        RESOLVED,
      );
      sql.exec(`DELETE FROM outbox WHERE seq = 6`);
      sql.exec(
        `INSERT INTO meta (key, value) VALUES ('outbox_retry', '{"attempts":2,"at":5000}')
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      );
      sql.exec(`UPDATE meta SET value = '18' WHERE key = 'schema_version'`);

      migrate(sql);
      const counter = new SqlCounter(sql);
      const outbox = new SqlOutbox(counter, () => 6_000);
      const migrated = sql
        .exec(
          `SELECT id, type, status, attempts, next_at, interaction_id, created_at, updated_at FROM outbox ORDER BY id`,
        )
        .toArray();
      const blocked = outbox.blockedUntil();
      const sent = outbox.lease(6_000, 66_000, 100);
      // A summary added now follows the one already tried, with a seq never given before.
      outbox.add(JSON.parse(SUMMARY), 6_000);
      outbox.flush();
      const retry = sql.exec(`SELECT value FROM meta WHERE key = 'outbox_retry'`).toArray();
      return { migrated, blocked, sent, retry, ids: outbox.oldest(10).map((row) => row.seq) };
    });
    expect(after).toEqual({
      migrated: [
        {
          id: 7,
          type: "card_opened",
          status: "pending",
          attempts: 2,
          next_at: 5_000,
          interaction_id: "toolu_waiting",
          created_at: 100,
          updated_at: 100,
        },
        {
          id: 8,
          type: "session_updated",
          status: "pending",
          attempts: 2,
          next_at: 5_000,
          interaction_id: null,
          created_at: 110,
          updated_at: 110,
        },
        {
          id: 9,
          type: "card_resolved",
          status: "pending",
          attempts: 2,
          next_at: 5_000,
          interaction_id: "toolu_waiting",
          created_at: 120,
          updated_at: 120,
        },
      ],
      blocked: 5_000,
      sent: {
        rows: [
          { seq: 7, entry: OPENED },
          { seq: 8, entry: SUMMARY },
          { seq: 9, entry: RESOLVED },
        ],
        attempts: 3,
      },
      retry: [],
      ids: [7, 8, 9, 10],
    });
  });
});
