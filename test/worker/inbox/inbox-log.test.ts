// The inbox's event log is a replay buffer: at least the last MAX_KEPT_EVENTS events stay, numbered
// without gaps, and older ones go in steps rather than one delete per applied change.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { InboxStore, MAX_KEPT_EVENTS } from "../../../src/inbox/inbox-store";
import type { ReceivedOutboxBatch } from "../../../src/protocol/inbox/inbox";
import { SqlCounter } from "../../../src/storage/sql-counter";
import { runInDurableObject } from "../../helpers/run-in-object";

/** Rows as the inbox applies them, parsed where it received them. */
function summaryRows(from: number, count: number): ReceivedOutboxBatch["rows"] {
  return Array.from({ length: count }, (_, i) => ({
    seq: from + i,
    entry: {
      type: "session_updated" as const,
      session: {
        status: "running" as const,
        title: null,
        agent: "Parley",
        createdAt: 1,
        lastActivity: from + i,
      },
    },
  }));
}

describe("the inbox's event log", () => {
  it("keeps at least the newest events it promises, without gaps, and trims the older ones", () =>
    runInDurableObject(env.INBOXES.get(env.INBOXES.newUniqueId()), (_object, state) => {
      const store = new InboxStore(new SqlCounter(state.storage.sql), () => 1_000);
      const sessionId = `ses_${"a".repeat(24)}`;
      const total = MAX_KEPT_EVENTS + 250;
      let applied = 0;
      const written: number[] = [];
      for (let seq = 1; seq <= total; seq += 150) {
        const rows = summaryRows(seq, Math.min(150, total - seq + 1));
        const before = store.lastSeq;
        const result = store.apply({ sessionId, rows });
        applied = result.appliedThrough;
        written.push(...result.events.map((event) => event.seq));
        expect(result.events[0]?.seq).toBe(before + 1);
      }
      expect(applied).toBe(total);
      expect(written).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      expect(store.lastSeq).toBe(total);

      const kept = state.storage.sql
        .exec<{ n: number; oldest: number }>(`SELECT COUNT(*) AS n, MIN(seq) AS oldest FROM events`)
        .toArray()[0];
      expect(kept?.n).toBeGreaterThanOrEqual(MAX_KEPT_EVENTS);
      expect(kept?.n).toBeLessThan(total);
      expect(kept?.n).toBe(total - (kept?.oldest ?? 0) + 1);
      // A stream that reconnects from before the kept events replays from the oldest one.
      const replay = store.framesAfter(0, 1).map((frame) => JSON.parse(frame) as { seq: number });
      expect(replay[0]?.seq).toBe(kept?.oldest);
    }));
});

describe("a delivery applied to the inbox", () => {
  it("writes its events in one statement and reads again nothing the inbox wrote itself", () =>
    runInDurableObject(env.INBOXES.get(env.INBOXES.newUniqueId()), (_object, state) => {
      const sql = new SqlCounter(state.storage.sql);
      const store = new InboxStore(sql, () => 1_000);
      const sessionId = `ses_${"b".repeat(24)}`;
      store.apply({ sessionId, rows: summaryRows(1, 3) });

      const statements = sql.statements;
      const second = store.apply({ sessionId, rows: summaryRows(4, 3) });
      // One insert of the three events, and one update of the session row with the last summary
      // and the applied seq: nothing read.
      expect(sql.statements - statements).toBe(2);
      expect(second.events.map((event) => event.seq)).toEqual([4, 5, 6]);
      expect(
        state.storage.sql
          .exec<{ applied_seq: number; last_activity: number }>(
            `SELECT applied_seq, last_activity FROM sessions WHERE session_id = ?`,
            sessionId,
          )
          .toArray(),
      ).toEqual([{ applied_seq: 6, last_activity: 6 }]);
      const stored = state.storage.sql
        .exec<{ frame: string }>(`SELECT frame FROM events WHERE seq > 3 ORDER BY seq`)
        .toArray()
        .map((row) => row.frame);
      expect(stored).toEqual(second.frames);

      // What it kept is what storage holds: a fresh store agrees, and a repeat appends nothing.
      const fresh = new InboxStore(new SqlCounter(state.storage.sql), () => 1_000);
      expect(fresh.lastSeq).toBe(store.lastSeq);
      expect(store.apply({ sessionId, rows: summaryRows(4, 3) }).events).toEqual([]);
      expect(fresh.apply({ sessionId, rows: summaryRows(6, 2) }).events.map((event) => event.seq)).toEqual([
        7,
      ]);
    }));
});
