// The session's stores keep the rows they read until their table is written: one answer cycle asks
// for the same cards, messages and results many times, and each query costs the wake CPU. What they
// hand out must still be what storage holds, and a caller's change must not reach the next reader.
import { describe, expect, it } from "vitest";
import { MetaStore } from "../../../src/objects/meta-store";
import { DEFAULT_DEADLINE_POLICY } from "../../../src/protocol/cards/deadline-policy";
import { OutboxBatch } from "../../../src/protocol/inbox/inbox";
import { SqlOutbox } from "../../../src/session/inbox-report/outbox";
import { SqlCardDeadlines } from "../../../src/session/stores/card-deadlines";
import {
  CARD,
  keptMatchesFresh,
  RESOLVED,
  SAVED,
  summaryRow,
  withStores,
} from "../../helpers/session-stores";

describe("rows a store keeps between writes", () => {
  it("reads a card and the pending list once, and sees the card resolved right after the write", () =>
    withStores(({ sql, interactions }) => {
      interactions.create(CARD);
      expect(interactions.pending().map((card) => card.id)).toEqual(["toolu_card"]);
      expect(interactions.get("toolu_card")?.status).toBe("pending");
      const read = sql.rowsRead;
      interactions.pending();
      interactions.get("toolu_card");
      expect(sql.rowsRead).toBe(read);

      // A caller that changes what it was given changes nothing for the next one.
      const mine = interactions.get("toolu_card");
      const request = mine?.request as { questions: unknown[] };
      request.questions.push("changed");
      expect(interactions.get("toolu_card")?.request).toEqual(CARD.request);

      expect(interactions.resolve("toolu_card", "answered", { answers: {} }, "phone", 2_000)).toBe(true);
      expect(interactions.get("toolu_card")).toMatchObject({ status: "answered", resolvedBy: "phone" });
      expect(interactions.pending()).toEqual([]);
      expect(interactions.get("toolu_missing")).toBeNull();
    }));

  it("reads the transcript once, and an append is seen by the next read", () =>
    withStores(({ sql, transcript }) => {
      transcript.append("user", [{ type: "text", text: "Hello" }]);
      expect(transcript.messages()).toHaveLength(1);
      const read = sql.rowsRead;
      const given = transcript.messages();
      transcript.last();
      expect(sql.rowsRead).toBe(read);
      const first = given[0]?.content as { text: string }[];
      first[0]!.text = "changed";
      expect(transcript.last()?.content).toEqual([{ type: "text", text: "Hello" }]);

      // A user message after a user message merges into it, through the kept last row.
      transcript.append("user", [{ type: "text", text: "And more" }]);
      expect(transcript.messages()).toEqual([
        {
          role: "user",
          content: [
            { type: "text", text: "Hello" },
            { type: "text", text: "And more" },
          ],
        },
      ]);
      transcript.append("assistant", [{ type: "text", text: "Hi" }]);
      expect(transcript.last()).toMatchObject({ role: "assistant", content: [{ type: "text", text: "Hi" }] });
      expect(transcript.count()).toBe(2);
    }));

  it("reads a tool result once, and finds the result stored after a miss", () =>
    withStores(({ sql, results }) => {
      expect(results.get("toolu_run")).toBeNull();
      results.put(SAVED);
      expect(results.get("toolu_run")).toMatchObject({ content: "Saved", isError: false });
      const read = sql.rowsRead;
      expect(results.get("toolu_run")).toMatchObject({ content: "Saved" });
      expect(sql.rowsRead).toBe(read);
    }));

  it("counts queued messages once, and again after one is queued or taken", () =>
    withStores(({ sql, queue }) => {
      expect(queue.shift()).toBeNull();
      queue.push({ id: "m1", text: "Next" });
      expect(queue.size()).toBe(1);
      const read = sql.rowsRead;
      expect(queue.size()).toBe(1);
      expect(sql.rowsRead).toBe(read);
      queue.push({ id: "m2", text: "After" });
      expect(queue.size()).toBe(2);
      expect(queue.shift()).toEqual({ id: "m1", text: "Next" });
      expect(queue.size()).toBe(1);
    }));
});

describe("settings on a new instance", () => {
  it("are read all at once by the first read, so later keys, set or not, cost nothing", () =>
    withStores(({ sql, meta }) => {
      meta.set("status", "running");
      meta.set("title", "Set up the service");
      const fresh = new MetaStore(sql);
      const statements = sql.statements;
      expect(fresh.string("status")).toBe("running");
      expect(fresh.string("title")).toBe("Set up the service");
      expect(fresh.string("last_error")).toBeNull();
      fresh.delete("last_error");
      expect(sql.statements - statements).toBe(1);
      // Forgetting (a rollback) reads them all again on next use.
      fresh.set("status", "idle");
      sql.forgetCopies();
      expect(fresh.string("status")).toBe("idle");
      expect(sql.statements - statements).toBe(3);
    }));
});

describe("writes that would change nothing", () => {
  it("are not made for a setting that already holds the value, or a key already absent", () =>
    withStores(({ sql, meta }) => {
      meta.set("status", "running");
      const written = sql.rowsWritten;
      meta.set("status", "running");
      meta.delete("last_error");
      meta.delete("last_error");
      expect(sql.rowsWritten).toBe(written);
      meta.set("status", "idle");
      meta.delete("status");
      expect(sql.rowsWritten).toBe(written + 2);
      expect(meta.string("status")).toBeNull();
    }));
});

describe("the outbox's summary", () => {
  it("waits as one row, the newest, after the rows added before it", () =>
    withStores(({ outbox }) => {
      outbox.add(summaryRow(10), 10);
      outbox.add(RESOLVED, 11);
      outbox.add(summaryRow(12, "idle"), 12);
      const rows = outbox.oldest(10);
      const entries = rows.map((row) => JSON.parse(row.entry) as { type: string });
      expect(entries.map((entry) => entry.type)).toEqual(["card_resolved", "session_updated"]);
      expect(entries[1]).toEqual(summaryRow(12, "idle"));
      expect(rows[1]!.seq).toBeGreaterThan(rows[0]!.seq);
      // The oldest waiting row decides when the delivery is due.
      expect(outbox.waiting().oldest).toBe(11);
    }));
});

describe("the outbox's rows on their way", () => {
  it("go out as the JSON text stored for them, which the inbox's edge parses once and refuses when it is no entry", () =>
    withStores(({ sql, outbox }) => {
      outbox.add(RESOLVED, 11);
      outbox.add(summaryRow(12), 12);
      const rows = outbox.oldest(10);
      expect(rows.map((row) => row.entry)).toEqual([
        JSON.stringify(RESOLVED),
        JSON.stringify(summaryRow(12)),
      ]);
      const batch = { sessionId: "a".repeat(32), rows };
      expect(OutboxBatch.parse(batch).rows.map((row) => row.entry)).toEqual([RESOLVED, summaryRow(12)]);

      // A new instance (the object was evicted) sends the same text.
      expect(new SqlOutbox(sql, () => 1_000).oldest(10)).toEqual(rows);

      // A row whose stored text was changed behind the session is refused where the inbox receives it.
      sql.run(
        ["outbox"],
        `UPDATE outbox SET entry = json_set(entry, '$.outcome', 'shrugged') WHERE id = ?`,
        rows[0]!.seq,
      );
      const changed = OutboxBatch.safeParse({ ...batch, rows: outbox.oldest(10) });
      expect(changed.success).toBe(false);
      expect(changed.error?.issues[0]?.path).toEqual(["rows", 0, "entry", "outcome"]);
      sql.run(["outbox"], `UPDATE outbox SET entry = '{not json' WHERE id = ?`, rows[0]!.seq);
      const broken = OutboxBatch.safeParse({ ...batch, rows: outbox.oldest(10) });
      expect(broken.error?.issues.map((issue) => issue.message)).toEqual(["entry is not JSON"]);
      outbox.acknowledge(rows[1]!.seq);
      expect(outbox.oldest(10)).toEqual([]);
    }));
});

describe("the earliest reminder of a pending card", () => {
  it("follows cards opened, reminded and answered without a query of its own", () =>
    withStores(({ sql, interactions }) => {
      const deadlines = new SqlCardDeadlines(sql, () => interactions.pendingIds());
      const joined = () =>
        sql.one<{ at: number | null }>(
          `SELECT MIN(d.reminder_at) AS at FROM card_deadlines d JOIN interactions i ON i.id = d.interaction_id
           WHERE d.reminder_at IS NOT NULL AND i.status = 'pending'`,
        )?.at ?? null;
      const policy = { ...DEFAULT_DEADLINE_POLICY, remindBeforeMs: [1_000] };
      expect(deadlines.earliestReminder()).toBeNull();
      // A card's policy is stored before its row, as the loop opens one.
      deadlines.open({ id: "toolu_card", createdAt: 1_000, timeoutMs: 4_000 }, policy);
      interactions.create(CARD);
      interactions.pending(); // as the loop's own steps read them
      keptMatchesFresh(sql, () => deadlines.earliestReminder(), joined);
      expect(deadlines.earliestReminder()).toBe(4_000);
      deadlines.open({ id: "toolu_next", createdAt: 1_500, timeoutMs: 2_000 }, policy);
      interactions.create({ ...CARD, id: "toolu_next", toolCallId: "toolu_next", createdAt: 1_500 });
      keptMatchesFresh(sql, () => deadlines.earliestReminder(), joined);
      expect(deadlines.earliestReminder()).toBe(2_500);
      deadlines.setReminder("toolu_next", null);
      keptMatchesFresh(sql, () => deadlines.earliestReminder(), joined);
      interactions.resolve("toolu_card", "answered", { answers: {} }, "phone", 2_000);
      keptMatchesFresh(sql, () => deadlines.earliestReminder(), joined);
      expect(deadlines.earliestReminder()).toBeNull();
    }));
});
