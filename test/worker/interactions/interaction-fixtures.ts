import { expect } from "vitest";
import type { ModelRequest } from "../../../src/model/model-client";
import type { SessionEvent } from "../../../src/protocol";
import { api, type CreatedSession } from "../../helpers/session-harness";
import {
  alarmOf,
  storageDump as dumpStorage,
  eventsOf,
  modelRequests,
  type SessionStub,
  stubOf,
  sqlRows as tableRows,
} from "../../helpers/session-object-probe";

export { dumpStorage, eventsOf, modelRequests, type SessionStub, stubOf, tableRows };

/**
 * The alarm must be exactly the earliest live deadline. With none (`null`), only the idle session's
 * retention deadline remains, weeks away.
 */
export async function expectAlarmAt(stub: SessionStub, expected: number | null): Promise<void> {
  const alarm = await alarmOf(stub);
  if (expected !== null) expect(alarm).toBe(expected);
  else expect(alarm).toBeGreaterThan(Date.now() + RETENTION_FLOOR_MS);
}

// The worker tests run with the default retention of 30 days; its warning comes a day before.
const RETENTION_FLOOR_MS = 28 * 24 * 60 * 60 * 1000;

/** The last message of a model request, which after a tool round-trip carries the tool results. */
export function lastMessage(request: ModelRequest | undefined) {
  const message = request?.messages.at(-1);
  if (!message) throw new Error("the request has no messages");
  return message;
}

/** The tool_result blocks of a message, without the cache markers the request builder adds. */
export function toolResultsOf(message: ModelRequest["messages"][number]) {
  if (typeof message.content === "string") return [];
  return message.content.flatMap((block) =>
    block.type === "tool_result"
      ? [{ toolUseId: block.tool_use_id, content: block.content, isError: block.is_error ?? false }]
      : [],
  );
}

/** The session's events as stored, read over HTTP (for when no device was listening). */
export async function storedEvents(session: CreatedSession): Promise<SessionEvent[]> {
  const response = await api("GET", `/api/sessions/${session.sessionId}/events`, { token: session.token });
  expect(response.status).toBe(200);
  return ((await response.json()) as { events: SessionEvent[] }).events;
}

/** Posts an interaction command over HTTP, as a device identified by `deviceId`. */
export async function post(
  session: CreatedSession,
  route: "submit-answers" | "approve" | "deny" | "respond" | "decide-batch" | "cancel" | "messages",
  body: Record<string, unknown>,
  deviceId?: string,
): Promise<{ status: number; body: { ok?: true; result?: unknown; error?: Record<string, unknown> } }> {
  const response = await api("POST", `/api/sessions/${session.sessionId}/${route}`, {
    token: session.token,
    body,
    ...(deviceId ? { headers: { "x-device-id": deviceId } } : {}),
  });
  return { status: response.status, body: (await response.json()) as never };
}

export const COLOUR_QUESTION = "Which colour should the theme use?";

/** An AskUserQuestion input with one single-select question. */
export function colourQuestion() {
  return {
    questions: [
      {
        question: COLOUR_QUESTION,
        header: "Colour",
        options: [
          { label: "Blue", description: "Calm and familiar." },
          { label: "Green", description: "Fresh, a little louder." },
        ],
        multiSelect: false,
      },
    ],
  };
}

/** The result text the Claude Agent SDK gives the model for answered questions. */
export function answeredResult(pairs: Array<[question: string, answer: string]>): string {
  const body = pairs.map(([question, answer]) => `"${question}"="${answer}"`).join(", ");
  return `User has answered your questions: ${body}. You can now continue with the user's answers in mind.`;
}
