// Shared pieces for the interaction tests: reaching a session's Durable Object, reading its alarm,
// storage and the requests its scripted model received, and the questions the scripts ask.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { ModelRequest } from "../../../src/model/model-client";
import type { ScriptedModelClient } from "../../../src/model/scripted-client";
import type { SessionEvent } from "../../../src/protocol";
import type { SessionObject } from "../../../src/session/session-object";
import { api, type CreatedSession, type Device } from "../../helpers/session-harness";

export type SessionStub = DurableObjectStub<SessionObject>;

export function stubOf(session: Pick<CreatedSession, "sessionId">): SessionStub {
  return env.SESSIONS.get(env.SESSIONS.idFromName(session.sessionId));
}

/** The alarm must be exactly the earliest live deadline, or absent when there is none. */
export async function expectAlarmAt(stub: SessionStub, expected: number | null): Promise<void> {
  const alarm = await runInDurableObject(stub, (_, state) => state.storage.getAlarm());
  expect(alarm).toBe(expected);
}

/** Every request the scripted model received in the current instance of the object. */
export async function modelRequests(stub: SessionStub): Promise<ModelRequest[]> {
  return runInDurableObject<SessionObject, ModelRequest[]>(stub, (instance) =>
    structuredClone((instance.model as ScriptedModelClient).requests),
  );
}

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

/** Every row of every table the session keeps, to show that something changed nothing. */
export async function dumpStorage(stub: SessionStub): Promise<Record<string, unknown[]>> {
  return runInDurableObject(stub, (_, state) => {
    const tables = state.storage.sql
      .exec<{ name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%' ORDER BY name`,
      )
      .toArray()
      .map((row) => row.name);
    return Object.fromEntries(
      tables.map((table) => [table, state.storage.sql.exec(`SELECT * FROM "${table}"`).toArray()]),
    );
  });
}

/** Rows of one table, e.g. the notes the notes_write tool stored. */
export async function tableRows<T extends Record<string, SqlStorageValue>>(
  stub: SessionStub,
  query: string,
): Promise<T[]> {
  return runInDurableObject(stub, (_, state) => state.storage.sql.exec<T>(query).toArray());
}

/** The session's events as stored, read over HTTP (for when no device was listening). */
export async function storedEvents(session: CreatedSession): Promise<SessionEvent[]> {
  const response = await api("GET", `/api/sessions/${session.sessionId}/events`, { token: session.token });
  expect(response.status).toBe(200);
  return ((await response.json()) as { events: SessionEvent[] }).events;
}

/** Events of one type a device received. */
export function eventsOf<T extends SessionEvent["type"]>(device: Device, type: T) {
  return device.events.filter((event): event is Extract<SessionEvent, { type: T }> => event.type === type);
}

/** Posts an interaction command over HTTP, as a device identified by `deviceId`. */
export async function post(
  session: CreatedSession,
  route: "submit-answers" | "approve" | "deny" | "cancel" | "messages",
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
