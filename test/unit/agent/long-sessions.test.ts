import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  CLEARED_RESULT,
  clearOldResults,
  compactionCut,
  SUMMARY_PREFIX,
} from "../../../src/agent/context-budget";
import type { MessageParam, ModelRequest } from "../../../src/model/model-client";
import { ScriptedModelClient } from "../../../src/model/scripted-client";
import type { ScriptedReply } from "../../../src/model/scripted-reply";
import { defineTool } from "../../../src/tools/define-tool";
import { createToolRegistry } from "../../../src/tools/registry";
import { loopHarness } from "./loop-harness";

const WINDOW = 20_000;
const RESULT_CHARS = 6_000;

const readBig = defineTool({
  name: "read_big",
  description: "Reads a large document page.",
  input: z.object({ page: z.number().int() }),
  risk: "read",
  idempotent: true,
  async run({ page }) {
    return `Page ${page}: ${"lorem ipsum ".repeat(RESULT_CHARS / 12)}`;
  },
});

const lastBlocks = (request: ModelRequest) => {
  const content = request.messages.at(-1)?.content;
  return typeof content === "string" ? [] : (content ?? []);
};

/**
 * A model that behaves like the API about size: a prompt over the window (counted as a real
 * tokenizer roughly would, 4 characters a token) is rejected. Otherwise each turn reads a page,
 * then says so; summarizing requests get a summary.
 */
function sizeStrictModel() {
  const seen = { rejected: 0, summaries: 0, largest: 0 };
  const model = new ScriptedModelClient((request): ScriptedReply => {
    const tokens = Math.ceil(JSON.stringify(request).length / 4);
    seen.largest = Math.max(seen.largest, tokens);
    if (tokens > WINDOW) {
      seen.rejected += 1;
      return {
        content: [],
        error: {
          code: "invalid_request",
          message: `prompt is too long: ${tokens} tokens > ${WINDOW} maximum`,
        },
      };
    }
    if (request.system[0]?.text.startsWith("You compact conversations")) {
      seen.summaries += 1;
      return {
        content: [
          { type: "text", text: `The user asked for pages one by one; ${seen.summaries} summaries so far.` },
        ],
      };
    }
    const last = lastBlocks(request);
    if (last.some((block) => block.type === "tool_result"))
      return { content: [{ type: "text", text: "I read that page." }] };
    const page = request.messages.length;
    return {
      content: [{ type: "tool_use", id: `toolu_${page}_${seen.largest}`, name: "read_big", input: { page } }],
    };
  });
  return { model, seen };
}

function expectApiValid(messages: MessageParam[]): void {
  messages.forEach((message, i) => {
    expect(message.role).toBe(i % 2 === 0 ? "user" : "assistant");
    const content = typeof message.content === "string" ? [] : message.content;
    const previous = messages[i - 1];
    const uses =
      previous && typeof previous.content !== "string"
        ? previous.content.flatMap((b) => (b.type === "tool_use" ? [b.id] : []))
        : [];
    const results = content.flatMap((b) => (b.type === "tool_result" ? [b.tool_use_id] : []));
    if (message.role === "user") expect(results).toEqual(uses);
  });
}

describe("a long session against a model that rejects oversized prompts", () => {
  it("runs 300 turns with large tool results, clearing old results and compacting history, and every turn succeeds", async () => {
    const { model, seen } = sizeStrictModel();
    const harness = loopHarness([], {
      model,
      settings: { contextTokens: WINDOW, maxTokens: 1_024 },
      extend: (deps) => ({ ...deps, tools: createToolRegistry([readBig]) }),
    });
    for (let turn = 0; turn < 300; turn++) {
      await harness.say(`Please read the next page (${turn}).`);
      const done = harness.eventsOf("done");
      expect(done).toHaveLength(turn + 1);
      expect(done.at(-1)?.data).toMatchObject({ stopReason: "end_turn" });
    }
    expect(harness.eventsOf("error")).toEqual([]);
    expect(seen.rejected).toBe(0);
    const compactions = harness.eventsOf("context_compacted");
    expect(new Set(compactions.map((event) => event.data.action))).toEqual(
      new Set(["cleared_tool_results", "summarized"]),
    );
    for (const event of compactions) expect(event.data.tokensAfter).toBeLessThan(event.data.tokensBefore);
    const messages = harness.deps.transcript.messages();
    expectApiValid(messages);
    expect(JSON.stringify(messages[0])).toContain(SUMMARY_PREFIX.slice(0, 40));
    expect(JSON.stringify(messages)).toContain("I read that page.");
  });
});

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
