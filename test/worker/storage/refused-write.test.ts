// A deferred write that storage refuses (here a row over its size limit) fails loudly and loses
// nothing: no seq is spent on it, nothing unstored is sent, and the turn it belonged to stops with
// an `internal` error that every device sees; the session then goes on from what storage holds.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SqlOutbox } from "../../../src/session/inbox-report/outbox";
import type { SessionObject } from "../../../src/session/session-object";
import { EventLog } from "../../../src/session/stores/event-log";
import { migrate } from "../../../src/session/stores/schema";
import { SqlCounter } from "../../../src/storage/sql-counter";
import { inside, runInDurableObject } from "../../helpers/run-in-object";
import { connect, createSession, textReply } from "../../helpers/session-harness";
import { sqlRows, stubOf } from "../../helpers/session-object-probe";

/** Over the limit for one row: 2 MB deployed, and under 16 MB in the local runtime the tests use. */
const OVERSIZED = "x".repeat(17_000_000);
const message = (text: string) => ({ messageId: `m_${text.length}`, text, queued: false, deviceId: null });
const seqOf = (frame: string) => (JSON.parse(frame) as { seq: number }).seq;

describe("an event storage refuses", () => {
  it("spends no seq, is never sent, and is reported when its step ends", async () => {
    const session = await createSession();
    await runInDurableObject<SessionObject, void>(stubOf(session), async (_instance, state) => {
      const sql = new SqlCounter(state.storage.sql);
      const reported: unknown[] = [];
      sql.onDeferredWriteFailure = (error) => reported.push(error);
      const sent: string[] = [];
      const log = new EventLog(
        sql,
        (frame) => sent.push(frame),
        () => Date.now(),
      );
      const before = log.lastSeq;

      log.append("user_message", message("fits"));
      log.append("user_message", message(OVERSIZED));
      await Promise.resolve();

      expect(reported).toHaveLength(1);
      expect(String(reported[0])).toMatch(/Storage refused a write/);
      // The step went in one statement, so neither of its rows is stored, and neither is sent.
      expect(sent).toEqual([]);
      expect(log.lastSeq).toBe(before);
      const next = log.append("user_message", message("after"));
      expect(next.seq).toBe(before + 1);
      await Promise.resolve();
      expect(sent.map(seqOf)).toEqual([before + 1]);
      expect(log.framesAfter(before).map(seqOf)).toEqual([before + 1]);
    });
  });

  it("thrown to a caller that writes it now, after sending what was stored before it", async () => {
    const session = await createSession();
    await runInDurableObject<SessionObject, void>(stubOf(session), async (_instance, state) => {
      const sql = new SqlCounter(state.storage.sql);
      const sent: string[] = [];
      const log = new EventLog(
        sql,
        (frame) => sent.push(frame),
        () => Date.now(),
      );
      const before = log.lastSeq;
      // More rows than one statement carries: the first statement goes in, the second is refused.
      for (let i = 0; i < 30; i += 1) log.append("user_message", message(`row ${i}`));
      log.append("user_message", message(OVERSIZED));

      expect(() => log.flush()).toThrow(/Storage refused a write/);
      const stored = sent.map(seqOf);
      expect(stored.length).toBeGreaterThan(0);
      expect(stored.length).toBeLessThan(31);
      expect(stored).toEqual(stored.map((_, i) => before + 1 + i));
      expect(log.lastSeq).toBe(before + stored.length);
      expect(log.append("user_message", message("next")).seq).toBe(before + stored.length + 1);
    });
  });
});

describe("an outbox row storage refuses", () => {
  it("is reported when its step ends, and what waits is what storage holds", async () => {
    await runInDurableObject(env.SESSIONS.get(env.SESSIONS.newUniqueId()), async (_object, state) => {
      migrate(state.storage.sql);
      const sql = new SqlCounter(state.storage.sql);
      const reported: unknown[] = [];
      sql.onDeferredWriteFailure = (error) => reported.push(error);
      const outbox = new SqlOutbox(sql, () => 1_000);
      const removed = { type: "session_removed" } as const;
      outbox.add(removed, 1_000);
      await Promise.resolve();
      expect(outbox.size()).toBe(1);

      outbox.add(
        {
          type: "card_resolved",
          interactionId: "toolu_x",
          outcome: "cancelled",
          resolvedBy: OVERSIZED,
          resolvedAt: 2_000,
        },
        2_000,
      );
      expect(outbox.waiting().oldest).toBe(1_000);
      await Promise.resolve();
      expect(reported).toHaveLength(1);
      expect(outbox.oldest(10).map((row) => JSON.parse(row.entry))).toEqual([removed]);
      expect(outbox.waiting()).toEqual({ oldest: 1_000, oldestCard: 1_000 });
    });
  });
});

describe("a turn whose events storage refuses", () => {
  it("stops with an internal error every device sees, leaves no gap, and the next message runs", async () => {
    const session = await createSession({
      script: [textReply("This reply stalls midway", { stallAfterEvents: 3 }), textReply("Back again.")],
    });
    const phone = await connect(session, { device: "phone" });
    const laptop = await connect(session, { device: "laptop" });
    await phone.request({ type: "send_message", text: "start" });
    await phone.waitForEvent("text_delta");

    // Something in the running turn appends an event too large to store.
    await runInDurableObject<SessionObject, void>(stubOf(session), async (instance) => {
      inside(instance).state.events.append("error", { code: "mcp_server", message: OVERSIZED });
      await Promise.resolve();
    });

    for (const device of [phone, laptop]) {
      const error = await device.waitForEvent("error", (e) => e.data.code === "internal");
      expect(error.data.message).toMatch(/Storage refused a write/);
      await device.waitForEvent("done", (e) => e.seq > error.seq);
      expect(device.event("error", (e) => e.data.code === "mcp_server")).toBeUndefined();
    }
    const seqs = (await sqlRows<{ seq: number }>(session, `SELECT seq FROM events ORDER BY seq`)).map(
      (row) => row.seq,
    );
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(phone.seqs()).toEqual(seqs.slice(-phone.seqs().length));

    await phone.request({ type: "send_message", text: "again" });
    await phone.waitForDone(2);
    const done = phone.events.filter((e) => e.type === "done");
    expect(done.at(-1)).toMatchObject({ data: { stopReason: "end_turn" } });
  });
});
