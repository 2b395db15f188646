import { describe, expect, it } from "vitest";
import { buildModelRequest, type RequestInput } from "../../../src/agent/model-request";
import type { MessageParam, ToolSpec } from "../../../src/model/model-client";

const HOUR = { type: "ephemeral", ttl: "1h" } as const;
const SHORT = { type: "ephemeral" } as const;

function tool(name: string): ToolSpec {
  return { name, description: `The ${name} tool.`, input_schema: { type: "object", properties: {} } };
}

function input(overrides: Partial<RequestInput> = {}): RequestInput {
  return {
    model: "claude-test",
    maxTokens: 1024,
    systemPrompt: "Be brief.",
    tools: [tool("current_time"), tool("notes_read"), tool("AskUserQuestion")],
    messages: [
      { role: "user", content: [{ type: "text", text: "What time is it?" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Checking." },
          { type: "tool_use", id: "toolu_1", name: "current_time", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "noon" },
          { type: "text", text: "Also, hurry." },
        ],
      },
    ],
    pausedForPerson: false,
    ...overrides,
  };
}

describe("buildModelRequest", () => {
  it("caches the system prompt and the tool list for an hour, marking only the last tool", () => {
    const request = buildModelRequest(input());
    expect(request.model).toBe("claude-test");
    expect(request.max_tokens).toBe(1024);
    expect(request.system).toEqual([{ type: "text", text: "Be brief.", cache_control: HOUR }]);
    expect(request.tools.map((t) => t.cache_control ?? null)).toEqual([null, null, HOUR]);
  });

  it("puts the rolling breakpoint on the last block of the last message only, with the 5-minute TTL", () => {
    const request = buildModelRequest(input());
    const last = request.messages[2]?.content;
    expect(last).toEqual([
      { type: "tool_result", tool_use_id: "toolu_1", content: "noon" },
      { type: "text", text: "Also, hurry.", cache_control: SHORT },
    ]);
    expect(JSON.stringify(request.messages.slice(0, 2))).not.toContain("cache_control");
  });

  it("uses the 1-hour TTL for the rolling breakpoint once the turn has paused for a person", () => {
    const request = buildModelRequest(input({ pausedForPerson: true }));
    const blocks = request.messages[2]?.content;
    expect(Array.isArray(blocks) && blocks.at(-1)).toMatchObject({ cache_control: HOUR });
  });

  it("never changes the stored transcript or tool list it was given", () => {
    const given = input();
    const before = structuredClone(given);
    buildModelRequest(given);
    expect(given).toEqual(before);
  });

  it("turns a plain-string message into a text block so it can carry the breakpoint", () => {
    const messages: MessageParam[] = [{ role: "user", content: "hello" }];
    const request = buildModelRequest(input({ messages }));
    expect(request.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "hello", cache_control: SHORT }] },
    ]);
  });

  it("uses at most four breakpoints, the Messages API limit", () => {
    const request = buildModelRequest(input());
    const count = JSON.stringify(request).split('"cache_control"').length - 1;
    expect(count).toBe(3);
  });

  it("builds a request with no tools and no messages without inventing breakpoints", () => {
    const request = buildModelRequest(input({ tools: [], messages: [] }));
    expect(request.tools).toEqual([]);
    expect(request.messages).toEqual([]);
    expect(request.system[0]?.cache_control).toEqual(HOUR);
  });
});
