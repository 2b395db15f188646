// Session stores over a fresh session database, and the rows the kept-rows tests store: shared by
// test/worker/storage/kept-rows.test.ts and kept-rows-own-writes.test.ts.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { MetaStore } from "../../src/objects/meta-store";
import type { OutboxEntry } from "../../src/protocol";
import { SqlOutbox } from "../../src/session/inbox-report/outbox";
import { SqlInteractionStore } from "../../src/session/stores/interaction-store";
import { SqlMessageQueue } from "../../src/session/stores/message-queue";
import { migrate } from "../../src/session/stores/schema";
import { SqlToolResultStore } from "../../src/session/stores/tool-result-store";
import { SqlTranscriptStore } from "../../src/session/stores/transcript-store";
import { SqlCounter } from "../../src/storage/sql-counter";
import { runInDurableObject } from "./run-in-object";

/** Stores over a fresh session database, and how many rows they read and wrote so far. */
export function withStores(
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
      outbox: new SqlOutbox(sql, () => 1_000),
    });
  });
}

/** `kept` (what a store kept) runs no statement, and equals `fresh` (a read of storage). */
export function keptMatchesFresh<T>(sql: SqlCounter, kept: () => T, fresh: () => T) {
  const statements = sql.statements;
  const value = kept();
  expect(sql.statements).toBe(statements);
  expect(value).toEqual(fresh());
}

export const CARD = {
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
export const SAVED = {
  toolCallId: "toolu_run",
  name: "notes_write",
  content: "Saved",
  isError: false,
  truncated: false,
};

/** An outbox row updating the session's summary at `at`. */
export const summaryRow = (at: number, status: "running" | "idle" = "running"): OutboxEntry => ({
  type: "session_updated",
  session: { status, title: null, agent: "Parley", createdAt: 1, lastActivity: at },
});

/** An outbox row saying the card was answered at 11. */
export const RESOLVED: OutboxEntry = {
  type: "card_resolved",
  interactionId: "toolu_card",
  outcome: "answered",
  resolvedBy: "phone",
  answeredBy: null,
  resolvedAt: 11,
};
