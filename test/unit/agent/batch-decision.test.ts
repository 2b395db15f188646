import { describe, expect, it } from "vitest";
import { checkBatch } from "../../../src/agent/batch-decision";
import type { InteractionRecord } from "../../../src/agent/ports";

function card(toolCallId: string, kind = "approval"): InteractionRecord {
  return {
    id: toolCallId,
    toolCallId,
    frameId: "main",
    kind,
    toolName: "notes_write",
    request: {},
    status: "pending",
    response: null,
    deadline: 1_000,
    createdAt: 0,
    resolvedAt: null,
    resolvedBy: null,
  };
}

// Two assistant messages: a and b were called by message 1, c by message 3; q is a question.
const records = new Map(
  [card("a"), card("b"), card("c"), card("q", "question")].map((r) => [r.toolCallId, r]),
);
const messages = new Map([
  ["a", 1],
  ["b", 1],
  ["c", 3],
  ["q", 3],
]);
const check = (ids: string[]) =>
  checkBatch(
    ids,
    (id) => records.get(id) ?? null,
    (id) => messages.get(id) ?? null,
  );

describe("checking a batch decision", () => {
  it("accepts the approval cards of one message, in the order named", () => {
    const checked = check(["b", "a"]);
    expect(checked.ok && checked.records.map((r) => r.toolCallId)).toEqual(["b", "a"]);
  });

  it("refuses cards of two different assistant messages", () => {
    expect(check(["a", "c"])).toEqual({
      ok: false,
      error: {
        code: "invalid_input",
        message:
          '"a" and "c" belong to different assistant messages; a batch decides the cards of one message',
      },
    });
  });

  it("refuses a card this session does not know, such as one of another session", () => {
    expect(check(["a", "toolu_elsewhere"])).toEqual({
      ok: false,
      error: {
        code: "unknown_interaction",
        message: 'No interaction with toolCallId "toolu_elsewhere" in this session',
      },
    });
  });

  it("refuses a card that is not an approval, and a card named twice", () => {
    expect(check(["q"])).toMatchObject({ ok: false, error: { code: "wrong_interaction_kind" } });
    expect(check(["a", "a"])).toEqual({
      ok: false,
      error: { code: "invalid_input", message: '"a" is named twice in the batch' },
    });
  });
});
