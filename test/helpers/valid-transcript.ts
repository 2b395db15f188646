// The Messages API's rules for a transcript, as one assertion shared by unit and worker tests.
import { expect } from "vitest";
import type { MessageParam } from "../../src/model/model-client";

/**
 * Asserts what the Messages API demands of a transcript: it opens with a user message, roles
 * alternate, and every tool_use is answered by a tool_result, in order, at the start of the next
 * user message (and no tool_result answers anything else).
 */
export function expectValidTranscript(messages: MessageParam[]): void {
  expect(messages[0]?.role).toBe("user");
  messages.forEach((message, i) => {
    if (i > 0)
      expect(message.role, `message ${i} repeats role ${message.role}`).not.toBe(messages[i - 1]?.role);
    const blocks = typeof message.content === "string" ? [] : message.content;
    const uses = message.role === "assistant" ? blocks.filter((b) => b.type === "tool_use") : [];
    const next = messages[i + 1];
    const nextBlocks = next && typeof next.content !== "string" ? next.content : [];
    const results = nextBlocks.filter((b) => b.type === "tool_result");
    if (message.role === "assistant") {
      if (uses.length > 0) expect(next, `tool_use in message ${i} is never answered`).toBeDefined();
      expect(results.map((r) => r.tool_use_id)).toEqual(uses.map((u) => u.id));
      // tool_result blocks must come first in their user message.
      expect(nextBlocks.slice(0, results.length).every((b) => b.type === "tool_result")).toBe(true);
    }
  });
  const first = messages[0];
  const firstBlocks = first && typeof first.content !== "string" ? first.content : [];
  expect(firstBlocks.some((b) => b.type === "tool_result")).toBe(false);
}
