// Migrations on a database written by an older version: rows stored before a column existed get
// the value the new code would have written.
import { describe, expect, it } from "vitest";
import type { SessionObject } from "../../../src/session/session-object";
import { migrate } from "../../../src/session/stores/schema";
import { runInDurableObject } from "../../helpers/run-in-object";
import { createSession } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";

describe("the session schema's migrations", () => {
  it("gives interactions stored before frames were recorded the frame whose message holds their tool call", async () => {
    const session = await createSession();
    const rows = await runInDurableObject<SessionObject, unknown[]>(stubOf(session), (_instance, state) => {
      const sql = state.storage.sql;
      // Back to the schema before interactions had a frame (migration 7), an agent's key (8), an
      // outbox (9), a card's opening link (10), tools' state (11), deadline policies (12), a card's
      // decider (14), its approvals (15), messages to an external agent (16), whether a device's
      // notifications carry actions (17) and cards' escalation ladders (18), with rows written then.
      sql.exec(`DROP TABLE card_escalations`);
      sql.exec(`ALTER TABLE push_subscriptions DROP COLUMN actions`);
      sql.exec(`DROP TABLE agent_messages`);
      sql.exec(`DROP TABLE card_approvals`);
      sql.exec(`ALTER TABLE interactions DROP COLUMN decider`);
      sql.exec(`DROP TABLE card_deadlines`);
      sql.exec(`DROP TABLE tool_state`);
      sql.exec(`ALTER TABLE interactions DROP COLUMN opened_by_link`);
      sql.exec(`DROP TABLE outbox`);
      sql.exec(`ALTER TABLE interactions DROP COLUMN answered_by`);
      sql.exec(`DROP INDEX interactions_by_external_key`);
      sql.exec(`ALTER TABLE interactions DROP COLUMN external_key`);
      sql.exec(`ALTER TABLE interactions DROP COLUMN frame_id`);
      sql.exec(`UPDATE meta SET value = '6' WHERE key = 'schema_version'`);
      const toolUse = (id: string) =>
        JSON.stringify([{ type: "tool_use", id, name: "notes_write", input: {} }]);
      sql.exec(
        `INSERT INTO messages (role, content, at, frame_id) VALUES ('assistant', ?, 1, 'main'), ('assistant', ?, 2, 'frame_7')`,
        toolUse("toolu_main"),
        toolUse("toolu_child"),
      );
      for (const id of ["toolu_main", "toolu_child", "toolu_gone"]) {
        sql.exec(
          `INSERT INTO interactions (id, tool_call_id, kind, tool_name, request, status, deadline, created_at)
           VALUES (?, ?, 'approval', 'notes_write', '{}', 'pending', 10, 1)`,
          id,
          id,
        );
      }
      migrate(sql);
      return sql.exec(`SELECT id, frame_id FROM interactions ORDER BY id`).toArray();
    });
    expect(rows).toEqual([
      { id: "toolu_child", frame_id: "frame_7" },
      { id: "toolu_gone", frame_id: "main" },
      { id: "toolu_main", frame_id: "main" },
    ]);
  });
});
