// The Messages API's rules for a transcript, as one check shared by unit and worker tests (and by
// fake APIs that judge every request they receive, so it is plain code, cheap enough to run often).
import { expect } from "vitest";
import type { ContentBlockParam, MessageParam } from "../../src/model/model-client";

const blocksOf = (message: MessageParam | undefined): ContentBlockParam[] =>
  message && typeof message.content !== "string" ? message.content : [];

/**
 * What the Messages API would refuse in a transcript, or [] when it is valid: it opens with a user
 * message, roles alternate, and every tool_use is answered by a tool_result, in order, at the start
 * of the next user message (and no tool_result answers anything else).
 */
export function transcriptProblems(messages: MessageParam[]): string[] {
  const problems: string[] = [];
  if (messages[0]?.role !== "user") problems.push("the transcript does not open with a user message");
  if (blocksOf(messages[0]).some((b) => b.type === "tool_result")) {
    problems.push("the first message carries a tool_result");
  }
  messages.forEach((message, i) => {
    if (i > 0 && message.role === messages[i - 1]?.role)
      problems.push(`message ${i} repeats role ${message.role}`);
    if (message.role !== "assistant") return;
    const uses = blocksOf(message).flatMap((b) => (b.type === "tool_use" ? [b.id] : []));
    const next = messages[i + 1];
    const nextBlocks = blocksOf(next);
    const results = nextBlocks.flatMap((b) => (b.type === "tool_result" ? [b.tool_use_id] : []));
    if (uses.length > 0 && !next) problems.push(`tool_use in message ${i} is never answered`);
    else if (results.join() !== uses.join()) {
      problems.push(`message ${i + 1} answers [${results.join()}] to tool_use [${uses.join()}]`);
    }
    if (nextBlocks.slice(0, results.length).some((b) => b.type !== "tool_result")) {
      problems.push(`message ${i + 1} has tool_result blocks after other content`);
    }
  });
  return problems;
}

/** Asserts the transcript is one the Messages API accepts. */
export function expectValidTranscript(messages: MessageParam[]): void {
  expect(transcriptProblems(messages)).toEqual([]);
}
