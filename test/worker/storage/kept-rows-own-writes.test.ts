// A store's own writes patch what it keeps instead of reading the table again: cards, messages,
// tool results and the outbox, each checked against a fresh read of storage.
import { describe, expect, it } from "vitest";
import { SqlOutbox } from "../../../src/session/inbox-report/outbox";
import { SqlInteractionStore } from "../../../src/session/stores/interaction-store";
import { SqlToolResultStore } from "../../../src/session/stores/tool-result-store";
import { SqlTranscriptStore } from "../../../src/session/stores/transcript-store";
import {
  CARD,
  keptMatchesFresh,
  RESOLVED,
  SAVED,
  summaryRow,
  withStores,
} from "../../helpers/session-stores";

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
    withStores(async ({ sql, outbox }) => {
      const fresh = () => new SqlOutbox(sql, () => 1_000).waiting();
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
      expect(rows.map((row) => JSON.parse(row.entry))).toEqual([RESOLVED, summaryRow(12)]);

      outbox.acknowledge(rows.at(-1)!.seq);
      expect(outbox.waiting()).toEqual({ oldest: null, oldestCard: null });
      // A rolled-back transaction's rows are dropped, never written.
      outbox.add(RESOLVED, 13);
      outbox.discard();
      expect(outbox.size()).toBe(0);
      expect(outbox.waiting()).toEqual({ oldest: null, oldestCard: null });
    }));
});
