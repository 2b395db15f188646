// The session's stores keep the rows they read until their table is written: one answer cycle asks
// for the same cards, messages and results many times, and each query costs the wake CPU. What they
// hand out must still be what storage holds, and a caller's change must not reach the next reader.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MetaStore } from "../../../src/objects/meta-store";
import type { OutboxEntry } from "../../../src/protocol";
import { DEFAULT_DEADLINE_POLICY } from "../../../src/protocol/deadline-policy";
import { SqlOutbox } from "../../../src/session/inbox-report/outbox";
import { SqlCardDeadlines } from "../../../src/session/stores/card-deadlines";
import { SqlInteractionStore } from "../../../src/session/stores/interaction-store";
import { SqlMessageQueue } from "../../../src/session/stores/message-queue";
import { migrate } from "../../../src/session/stores/schema";
import { SqlToolResultStore } from "../../../src/session/stores/tool-result-store";
import { SqlTranscriptStore } from "../../../src/session/stores/transcript-store";
import { SqlCounter } from "../../../src/storage/sql-counter";
import { runInDurableObject } from "../../helpers/run-in-object";

/** Stores over a fresh session database, and how many rows they read and wrote so far. */
function withStores(
  test: (stores: {
    sql: SqlCounter;
    interactions: SqlInteractionStore;
    transcript: SqlTranscriptStore;
    results: SqlToolResultStore;
    queue: SqlMessageQueue;
    meta: MetaStore;
    outbox: SqlOutbox;
  }) => void | Promise<void>,
) {
  return runInDurableObject(env.SESSIONS.get(env.SESSIONS.newUniqueId()), async (_object, state) => {
    migrate(state.storage.sql);
    const sql = new SqlCounter(state.storage.sql);
    const meta = new MetaStore(sql);
    await test({
      sql,
      interactions: new SqlInteractionStore(sql),
      transcript: new SqlTranscriptStore(sql, () => 1_000, { top: () => null }),
      results: new SqlToolResultStore(sql, () => 1_000),
      queue: new SqlMessageQueue(sql, () => 1_000),
      meta,
      outbox: new SqlOutbox(sql, meta),
    });
  });
}

/** `kept` (what a store kept) runs no statement, and equals `fresh` (a read of storage). */
function keptMatchesFresh<T>(sql: SqlCounter, kept: () => T, fresh: () => T) {
  const statements = sql.statements;
  const value = kept();
  expect(sql.statements).toBe(statements);
  expect(value).toEqual(fresh());
}

const CARD = {
  id: "toolu_card",
  toolCallId: "toolu_card",
  frameId: "main",
  kind: "question",
  toolName: "AskUserQuestion",
  request: { questions: [{ question: "Which?" }] },
  deadline: 5_000,
  createdAt: 1_000,
};

/** A tool call's result as a tool stores it. */
const SAVED = {
  toolCallId: "toolu_run",
  name: "notes_write",
  content: "Saved",
  isError: false,
  truncated: false,
};

/** An outbox row updating the session's summary at `at`. */
const summaryRow = (at: number, status: "running" | "idle" = "running"): OutboxEntry => ({
  type: "session_updated",
  session: { status, title: null, agent: "Parley", createdAt: 1, lastActivity: at },
});

/** An outbox row saying the card was answered at 11. */
const RESOLVED: OutboxEntry = {
  type: "card_resolved",
  interactionId: "toolu_card",
  outcome: "answered",
  resolvedBy: "phone",
  answeredBy: null,
  resolvedAt: 11,
};

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
      expect(rows.map((row) => row.entry.type)).toEqual(["card_resolved", "session_updated"]);
      expect(rows[1]?.entry).toEqual(summaryRow(12, "idle"));
      expect(rows[1]!.seq).toBeGreaterThan(rows[0]!.seq);
      // The oldest waiting row decides when the delivery is due.
      expect(outbox.waiting().oldest).toBe(11);
    }));
});

describe("the outbox's own rows", () => {
  it("go out as the values added, while rows another instance wrote, or changed behind it, are parsed", () =>
    withStores(({ sql, meta, outbox }) => {
      outbox.add(RESOLVED, 11);
      outbox.add(summaryRow(12), 12);
      const rows = outbox.oldest(10);
      expect(rows[0]?.entry).toBe(RESOLVED);

      // A new instance (the object was evicted) parses what it reads back, to the same values.
      const after = new SqlOutbox(sql, meta).oldest(10);
      expect(after.map((row) => row.entry)).toEqual(rows.map((row) => row.entry));
      expect(after[0]?.entry).not.toBe(RESOLVED);

      // A row whose stored text is not what this instance wrote is validated like any stored JSON.
      sql.run(
        ["outbox"],
        `UPDATE outbox SET entry = json_set(entry, '$.outcome', 'shrugged') WHERE seq = ?`,
        rows[0]!.seq,
      );
      expect(() => outbox.oldest(10)).toThrow();
      outbox.acknowledge(rows[1]!.seq);
      expect(outbox.oldest(10)).toEqual([]);
    }));
});

describe("a store's own writes bring what it keeps up to date", () => {
  it("cards: created, resolved and extended without reading them again", () =>
    withStores(({ sql, interactions }) => {
      const fresh = () => new SqlInteractionStore(sql);
      interactions.create(CARD);
      interactions.pending();
      interactions.get("toolu_card");
      interactions.create({ ...CARD, id: "toolu_next", toolCallId: "toolu_next", createdAt: 1_500 });
      // Created earlier than the newest: the pending list keeps created_at order.
      interactions.create({ ...CARD, id: "toolu_early", toolCallId: "toolu_early", createdAt: 500 });
      keptMatchesFresh(
        sql,
        () => interactions.pending(),
        () => fresh().pending(),
      );
      expect(interactions.pending().map((card) => card.id)).toEqual([
        "toolu_early",
        "toolu_card",
        "toolu_next",
      ]);
      keptMatchesFresh(
        sql,
        () => interactions.get("toolu_next"),
        () => fresh().get("toolu_next"),
      );

      expect(
        interactions.resolve("toolu_card", "answered", { answers: { Which: "A" } }, "phone", 2_000, {
          kind: "person",
          label: "ana",
          id: "ana",
          device: "page",
        }),
      ).toBe(true);
      keptMatchesFresh(
        sql,
        () => interactions.get("toolu_card"),
        () => fresh().get("toolu_card"),
      );
      keptMatchesFresh(
        sql,
        () => interactions.pending(),
        () => fresh().pending(),
      );
      expect(interactions.extend("toolu_next", 9_000)).toBe(true);
      keptMatchesFresh(
        sql,
        () => interactions.pending(),
        () => fresh().pending(),
      );
      keptMatchesFresh(
        sql,
        () => interactions.earliestDeadline(),
        () => fresh().earliestDeadline(),
      );
      keptMatchesFresh(
        sql,
        () => interactions.get("toolu_next"),
        () => fresh().get("toolu_next"),
      );
      // A second answer loses the compare-and-set and changes nothing kept.
      expect(interactions.resolve("toolu_card", "cancelled", null, "laptop", 3_000)).toBe(false);
      keptMatchesFresh(
        sql,
        () => interactions.get("toolu_card"),
        () => fresh().get("toolu_card"),
      );
    }));

  it("cards: a pending card is found among the kept pending rows, and kept by id once answered", () =>
    withStores(({ sql, interactions }) => {
      interactions.create(CARD);
      const woken = new SqlInteractionStore(sql); // a new instance, whose hello read the pending cards
      woken.pending();
      keptMatchesFresh(
        sql,
        () => woken.get("toolu_card"),
        () => new SqlInteractionStore(sql).get("toolu_card"),
      );
      expect(woken.resolve("toolu_card", "answered", { answers: {} }, "phone", 2_000)).toBe(true);
      keptMatchesFresh(
        sql,
        () => woken.get("toolu_card"),
        () => new SqlInteractionStore(sql).get("toolu_card"),
      );
    }));

  it("messages: appended and merged without reading the transcript again", () =>
    withStores(({ sql, transcript }) => {
      const fresh = () => new SqlTranscriptStore(sql, () => 1_000, { top: () => null });
      transcript.append("user", [{ type: "text", text: "Hello" }]);
      transcript.messages();
      transcript.append("assistant", [{ type: "text", text: "Hi" }]);
      keptMatchesFresh(
        sql,
        () => transcript.messages(),
        () => fresh().messages(),
      );
      keptMatchesFresh(
        sql,
        () => transcript.last(),
        () => fresh().last(),
      );
      transcript.append("user", [{ type: "tool_result", tool_use_id: "toolu_1", content: "done" }]);
      transcript.append("user", [{ type: "text", text: "Carry on" }]);
      keptMatchesFresh(
        sql,
        () => transcript.messages(),
        () => fresh().messages(),
      );
      keptMatchesFresh(
        sql,
        () => transcript.last(),
        () => fresh().last(),
      );
      expect(transcript.messages()).toHaveLength(3);
    }));

  it("tool results: a stored result is found without a read", () =>
    withStores(({ sql, results }) => {
      expect(results.get("toolu_run")).toBeNull();
      results.put(SAVED);
      keptMatchesFresh(
        sql,
        () => results.get("toolu_run"),
        () => new SqlToolResultStore(sql, () => 1_000).get("toolu_run"),
      );
      // The first result wins; a later one changes neither storage nor what is kept.
      results.put({ ...SAVED, content: "Late", isError: true });
      keptMatchesFresh(
        sql,
        () => results.get("toolu_run"),
        () => new SqlToolResultStore(sql, () => 1_000).get("toolu_run"),
      );
      expect(results.get("toolu_run")?.content).toBe("Saved");
    }));

  it("the outbox: rows a step adds wait in memory and are written in one statement", () =>
    withStores(async ({ sql, outbox, meta }) => {
      const fresh = () => new SqlOutbox(sql, meta).waiting();
      expect(outbox.waiting()).toEqual({ oldest: null, oldestCard: null });
      const statements = sql.statements;
      outbox.add(summaryRow(10), 10);
      expect(outbox.waiting()).toEqual({ oldest: 10, oldestCard: null });
      outbox.add(RESOLVED, 11);
      expect(outbox.waiting()).toEqual({ oldest: 10, oldestCard: 11 });
      // The newer summary replaces the older: the card is now the oldest row.
      outbox.add(summaryRow(12), 12);
      expect(outbox.waiting()).toEqual({ oldest: 11, oldestCard: 11 });
      expect(sql.statements).toBe(statements);

      await Promise.resolve(); // the step ends
      expect(sql.statements - statements).toBe(1);
      keptMatchesFresh(sql, () => outbox.waiting(), fresh);
      const rows = outbox.oldest(10);
      expect(rows.map((row) => row.entry)).toEqual([RESOLVED, summaryRow(12)]);

      outbox.acknowledge(rows.at(-1)!.seq);
      expect(outbox.waiting()).toEqual({ oldest: null, oldestCard: null });
      // A rolled-back transaction's rows are dropped, never written.
      outbox.add(RESOLVED, 13);
      outbox.discard();
      expect(outbox.size()).toBe(0);
      expect(outbox.waiting()).toEqual({ oldest: null, oldestCard: null });
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
