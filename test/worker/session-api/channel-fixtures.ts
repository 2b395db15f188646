// Shared fixtures for the session-channel tests: a session's Durable Object stub, a fingerprint of
// everything it stores (to prove rejected input changed nothing), and event-list helpers.
import { expect } from "vitest";
import type { SessionEvent } from "../../../src/protocol";
import {
  type CreatedSession,
  connect,
  createSession,
  type Device,
  textReply,
  toolReply,
} from "../../helpers/session-harness";
import { sqlRows, storageDump, stubOf } from "../../helpers/session-object-probe";

/** The Durable Object stub behind a session id (the Worker maps ids to objects by name). */
export const sessionObject = (sessionId: string) => stubOf(sessionId);

/** Every row of every table, as text: equal fingerprints mean storage did not change. */
export async function storageFingerprint(sessionId: string): Promise<string> {
  return JSON.stringify(await storageDump(sessionId));
}

/** Number of stored event rows, read straight from SQLite. */
export async function storedEventCount(sessionId: string): Promise<number> {
  const [row] = await sqlRows<{ n: number }>(sessionId, `SELECT COUNT(*) AS n FROM events`);
  return row?.n ?? 0;
}

/** Asserts `seqs` is exactly first, first+1, … with nothing missing or repeated. */
export function expectContiguous(seqs: number[], first: number): void {
  expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => first + i));
}

/** The assistant text of every text_delta a device received, concatenated. */
export function streamedText(events: SessionEvent[]): string {
  return events.map((e) => (e.type === "text_delta" ? e.data.text : "")).join("");
}

/** Waits until a device has received the event with this seq. */
export async function waitForSeq(device: Device, seq: number): Promise<void> {
  await device.until(() => device.events.some((e) => e.seq >= seq), `event seq ${seq}`);
}

/** Waits until a device has seen `turns` done events and the session went idle after the last. */
export async function waitForIdle(device: Device, turns: number): Promise<void> {
  await device.until(() => {
    const last = device.events.at(-1);
    const done = device.events.filter((e) => e.type === "done").length;
    return done >= turns && last?.type === "session_status" && last.data.status === "idle";
  }, `${turns} finished turn(s) and idle`);
}

/**
 * A session with history that is paused on a tool approval (toolCallId `toolu_pending`), so input
 * that wrongly touched storage would show: a new event, a resolved interaction, a queued message.
 */
export async function pausedSession(): Promise<CreatedSession> {
  const session = await createSession({
    script: [
      toolReply([{ id: "toolu_pending", name: "notes_write", input: { key: "plan", text: "draft" } }]),
      textReply("Saved."),
    ],
  });
  const device = await connect(session);
  await device.request({ type: "send_message", text: "write the plan down" });
  await device.until(() => {
    const last = device.events.at(-1);
    return last?.type === "session_status" && last.data.status === "awaiting_input";
  }, "awaiting_input");
  device.close();
  return session;
}
