// The inbox's event log is a replay buffer: at least the last MAX_KEPT_EVENTS events stay, numbered
// without gaps, and older ones go in steps rather than one delete per applied change.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { InboxStore, MAX_KEPT_EVENTS } from "../../../src/inbox/inbox-store";
import type { OutboxRow } from "../../../src/protocol";
import { SqlCounter } from "../../../src/storage/sql-counter";
import { runInDurableObject } from "../../helpers/run-in-object";

function summaryRows(from: number, count: number): OutboxRow[] {
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
