import { expect } from "vitest";
import type { MessageParam, ModelRequest } from "../../../src/model/model-client";
import { api, type CreatedSession, type Device } from "../../helpers/session-harness";
import { eventsOf, modelRequests, sqlRows, stubOf } from "../../helpers/session-object-probe";

export { eventsOf, modelRequests, sqlRows, stubOf };

/** The last request the scripted model received. */
export async function lastRequest(session: Pick<CreatedSession, "sessionId">): Promise<ModelRequest> {
  const requests = await modelRequests(session);
  const last = requests[requests.length - 1];
  if (!last) throw new Error("the model received no request");
  return last;
}

export interface SessionStatsBody {
  rowsWritten: number;
  rowsRead: number;
  events: number;
  eventsByType: Record<string, number>;
  messages: number;
}

export async function stats(session: CreatedSession): Promise<SessionStatsBody> {
  const response = await api("GET", `/api/sessions/${session.sessionId}/stats`, { token: session.token });
  expect(response.status).toBe(200);
  return (await response.json()) as SessionStatsBody;
}

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

/** Text of every text block the user messages of a request carry, in order. */
export function userTexts(request: ModelRequest): string[] {
  const texts: string[] = [];
  for (const message of request.messages) {
    if (message.role !== "user") continue;
    if (typeof message.content === "string") texts.push(message.content);
    else for (const block of message.content) if (block.type === "text") texts.push(block.text);
  }
  return texts;
}

/** The streamed text of the session so far, joined. */
export function streamedText(device: Device): string {
  return eventsOf(device, "text_delta")
    .map((e) => e.data.text)
    .join("");
}
