// The session's last activity (what retention counts idleness from) is kept by the event log as it
// appends, so the alarm's re-arms do not query it; a rolled-back event must not count.
import { describe, expect, it } from "vitest";
import type { SessionObject } from "../../../src/session/session-object";
import { EventLog } from "../../../src/session/stores/event-log";
import { SqlCounter } from "../../../src/storage/sql-counter";
import { runInDurableObject } from "../../helpers/run-in-object";
import { createSession } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";

const message = (text: string) => ({ messageId: `m_${text}`, text, queued: false, deviceId: null });

describe("the session's last activity", () => {
  it("follows the newest event but an expiry warning, reads storage once, and forgets a rolled-back event", async () => {
    const session = await createSession();
    await runInDurableObject<SessionObject, void>(stubOf(session), async (_instance, state) => {
      const sql = new SqlCounter(state.storage.sql);
      let now = Date.now() + 60_000;
      const log = new EventLog(
        sql,
        () => 0,
        () => now,
      );

      const first = log.append("user_message", message("hello"));
      now += 1_000;
      log.append("session_expiring", { expiresAt: now + 86_400_000 });
      const readsBefore = sql.rowsRead;
      expect(log.lastActivityAt()).toBe(first.at);
      expect(sql.rowsRead).toBe(readsBefore);

      // A fresh log (a new instance, after this one's step ended) reads it from storage, skipping
      // the warning.
      log.flush();
      const fresh = new EventLog(
        sql,
        () => 0,
        () => now,
      );
      expect(fresh.lastActivityAt()).toBe(first.at);

      now += 1_000;
      expect(() =>
        log.holdingBroadcasts(() =>
          state.storage.transactionSync(() => {
            log.append("user_message", message("undone"));
            throw new Error("rolled back");
          }),
        ),
      ).toThrow("rolled back");
      sql.forgetCopies(); // as SessionState.atomically does after a rollback
      expect(log.lastActivityAt()).toBe(first.at);
    });
  });
});
