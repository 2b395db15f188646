import { describe, expect, it } from "vitest";
import {
  MAX_SCRIPTED_BLOCKS,
  MAX_SCRIPTED_TEXT_CHARS,
  ScriptedReply,
  stopReasonOf,
} from "../../../src/model/scripted-reply";

const text = (value: string) => ({ type: "text", text: value });

describe("ScriptedReply", () => {
  it("accepts a reply with text, a tool call and every optional control", () => {
    const reply = {
      content: [text("hi"), { type: "tool_use", id: "toolu_1", name: "notes_write", input: { key: "a" } }],
      stopReason: "tool_use",
      usage: { input_tokens: 10, output_tokens: 3 },
      textChunkSize: 2,
      paceMs: 5,
      stallAfterEvents: 4,
      error: { code: "overloaded", message: "busy", afterEvents: 2 },
    };
    expect(ScriptedReply.parse(reply)).toEqual(reply);
  });

  it.each([
    ["an unknown top-level key", { content: [], delay: 5 }],
    ["an unknown block type", { content: [{ type: "image", url: "x" }] }],
    ["an unknown key in a block", { content: [{ ...text("hi"), cache_control: {} }] }],
    ["a tool name the API would reject", { content: [{ type: "tool_use", name: "rm -rf", input: {} }] }],
    ["a tool id with spaces", { content: [{ type: "tool_use", id: "a b", name: "t", input: {} }] }],
    ["tool input that is not an object", { content: [{ type: "tool_use", name: "t", input: [1] }] }],
    ["an unknown stop reason", { content: [], stopReason: "tired" }],
    ["an unknown error code", { content: [], error: { code: "teapot", message: "x" } }],
    ["a zero chunk size", { content: [text("hi")], textChunkSize: 0 }],
    ["a negative stall", { content: [], stallAfterEvents: -1 }],
    ["a pace over a minute", { content: [], paceMs: 60_001 }],
    ["text over the limit", { content: [text("x".repeat(MAX_SCRIPTED_TEXT_CHARS + 1))] }],
    ["too many blocks", { content: Array.from({ length: MAX_SCRIPTED_BLOCKS + 1 }, () => text("x")) }],
  ])("rejects %s", (_, reply) => {
    expect(ScriptedReply.safeParse(reply).success).toBe(false);
  });

  it("stops for tools when a reply calls one and ends the turn otherwise, unless told", () => {
    const tool = { type: "tool_use" as const, name: "t", input: {} };
    expect(stopReasonOf({ content: [text("hi") as { type: "text"; text: string }] })).toBe("end_turn");
    expect(stopReasonOf({ content: [tool] })).toBe("tool_use");
    expect(stopReasonOf({ content: [tool], stopReason: "max_tokens" })).toBe("max_tokens");
  });
});
