// The pure parts of keeping requests inside the context window; a 300-turn session against a
// size-strict model runs end to end in test/worker/model-api/long-session.test.ts.
import { describe, expect, it } from "vitest";
import { CLEARED_RESULT, clearOldResults, compactionCut } from "../../../src/agent/context-budget";
import type { MessageParam } from "../../../src/model/model-client";
import { transcriptProblems } from "../../helpers/valid-transcript";

describe("context budget helpers", () => {
  const result = (id: string, text: string) => ({
    type: "tool_result" as const,
    tool_use_id: id,
    content: text,
  });
  const use = (id: string) => ({ type: "tool_use" as const, id, name: "read_big", input: {} });
  const big = "x".repeat(500);

  it("clears all but the two newest result messages, and leaves short results alone", () => {
    const messages: MessageParam[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: [use("a")] },
      { role: "user", content: [result("a", big)] },
      { role: "assistant", content: [use("b"), use("c")] },
      { role: "user", content: [result("b", big), result("c", "short")] },
      { role: "assistant", content: [use("d")] },
      { role: "user", content: [result("d", big)] },
      { role: "assistant", content: [use("e")] },
      { role: "user", content: [result("e", big)] },
    ];
    const { messages: cleared, count } = clearOldResults(messages);
    expect(count).toBe(2);
    expect(cleared[2]).toEqual({ role: "user", content: [result("a", CLEARED_RESULT)] });
    expect(cleared[4]).toEqual({
      role: "user",
      content: [result("b", CLEARED_RESULT), result("c", "short")],
    });
    expect(cleared.slice(5)).toEqual(messages.slice(5));
    // Clearing keeps every exchange whole; the check the long-session test relies on would see a gap.
    expect(transcriptProblems(cleared)).toEqual([]);
    expect(transcriptProblems([...cleared.slice(0, 4), ...cleared.slice(5)])).toEqual([
      "message 4 answers [] to tool_use [b,c]",
      "message 4 repeats role assistant",
    ]);
    expect(transcriptProblems(cleared.slice(1))).toEqual([
      "the transcript does not open with a user message",
    ]);
  });

  it("cuts at the start of the latest turn, never inside a tool exchange", () => {
    const messages: MessageParam[] = [
      { role: "user", content: "first" },
      { role: "assistant", content: "one" },
      { role: "user", content: [{ type: "text", text: "second" }] },
      { role: "assistant", content: [use("a")] },
      { role: "user", content: [result("a", big)] },
    ];
    expect(compactionCut(messages)).toBe(2);
    expect(compactionCut(messages.slice(0, 1))).toBeNull();
  });
});
