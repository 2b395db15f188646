// The events one synchronous step appends are written in one statement when the step ends, and
// only then sent: a device never holds an event that storage could lose, and never gets a live
// frame or a replay ahead of an event appended before it.
import { describe, expect, it } from "vitest";
import type { SessionObject } from "../../../src/session/session-object";
import { EventLog } from "../../../src/session/stores/event-log";
import { SqlCounter } from "../../../src/storage/sql-counter";
import { runInDurableObject } from "../../helpers/run-in-object";
import { createSession } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";

const message = (text: string) => ({ messageId: `m_${text}`, text, queued: false, deviceId: null });

async function withLog(
  test: (
    log: EventLog,
    sql: SqlCounter,
    sent: string[],
    stored: () => number[],
    transaction: <T>(work: () => T) => T,
  ) => Promise<void>,
) {
  const session = await createSession();
  await runInDurableObject<SessionObject, void>(stubOf(session), async (_instance, state) => {
    const sql = new SqlCounter(state.storage.sql);
    const sent: string[] = [];
    const log = new EventLog(
      sql,
      (frame) => sent.push(frame),
      () => Date.now(),
    );
    const stored = () =>
      state.storage.sql
        .exec<{ seq: number }>(`SELECT seq FROM events WHERE seq > ? ORDER BY seq`, before)
        .toArray()
        .map((row) => row.seq);
    const before = log.lastSeq;
    await test(log, sql, sent, stored, (work) => state.storage.transactionSync(work));
  });
}

const seqOf = (frame: string) => (JSON.parse(frame) as { seq?: number }).seq;

describe("events appended in one step", () => {
  it("are written in one statement when the step ends, and sent only after", () =>
    withLog(async (log, sql, sent, stored) => {
      const first = log.append("user_message", message("one"));
      log.append("user_message", message("two"));
      log.append("user_message", message("three"));
      expect(sent).toEqual([]);
      expect(stored()).toEqual([]);
      const statements = sql.statements;
      await Promise.resolve();
      expect(sql.statements - statements).toBe(1);
      expect(stored()).toEqual([first.seq, first.seq + 1, first.seq + 2]);
      expect(sent.map(seqOf)).toEqual([first.seq, first.seq + 1, first.seq + 2]);
    }));

  it("go out before a live frame sent after them, and are replayed before the step ends", () =>
    withLog(async (log, _sql, sent, stored) => {
      const event = log.append("user_message", message("before the text"));
      log.sendLive({ type: "delta", turnId: "turn_1", call: 0, index: 0, offset: 0, text: "Hi" });
      expect(sent.map(seqOf)).toEqual([event.seq, undefined]);
      expect(stored()).toEqual([event.seq]);
      const next = log.append("user_message", message("read back"));
      expect(log.framesAfter(event.seq).map(seqOf)).toEqual([next.seq]);
    }));

  it("inside a transaction that rolls back are neither stored nor sent", () =>
    withLog(async (log, _sql, sent, stored, transaction) => {
      const kept = log.append("user_message", message("kept"));
      expect(() =>
        log.holdingBroadcasts(() =>
          transaction(() => {
            log.append("user_message", message("undone"));
            log.flush(); // as SessionState.atomically does before its transaction commits
            throw new Error("rolled back");
          }),
        ),
      ).toThrow("rolled back");
      await Promise.resolve();
      expect(sent.map(seqOf)).toEqual([kept.seq]);
      expect(stored()).toEqual([kept.seq]);
      expect(log.lastSeq).toBe(kept.seq);
      expect(log.append("user_message", message("after")).seq).toBe(kept.seq + 1);
    }));
});
