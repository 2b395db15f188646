// Looks inside a session's Durable Object from a worker test: its stub, the requests its scripted
// model received, raw SQL rows, a dump of every table, its alarm; plus event filtering on a device.
import { env } from "cloudflare:workers";
import type { ModelRequest } from "../../src/model/model-client";
import type { ScriptedModelClient } from "../../src/model/scripted-client";
import type { SessionEvent } from "../../src/protocol";
import type { SessionObject } from "../../src/session/session-object";
import { inside, runInDurableObject } from "./run-in-object";
import type { Device } from "./session-harness";

export type SessionStub = DurableObjectStub<SessionObject>;
/** A session id, anything carrying one, or the stub itself. */
export type SessionRef = string | { sessionId: string } | SessionStub;

export function stubOf(ref: SessionRef): SessionStub {
  // A stub answers every property with an RPC proxy, so only a string id tells a session apart.
  const sessionId = typeof ref === "string" ? ref : (ref as { sessionId: unknown }).sessionId;
  if (typeof sessionId !== "string") return ref as SessionStub;
  return env.SESSIONS.get(env.SESSIONS.idFromName(sessionId)) as SessionStub;
}

/** Every request the scripted model received in the object's current instance, in order. */
export async function modelRequests(ref: SessionRef): Promise<ModelRequest[]> {
  return runInDurableObject<SessionObject, ModelRequest[]>(stubOf(ref), (instance) =>
    structuredClone((inside(instance).model() as ScriptedModelClient).requests),
  );
}

/** The rows of one SQL query, run inside the object. */
export async function sqlRows<T>(
  ref: SessionRef,
  query: string,
  ...bindings: SqlStorageValue[]
): Promise<T[]> {
  return runInDurableObject(
    stubOf(ref),
    (_instance: SessionObject, state) => state.storage.sql.exec(query, ...bindings).toArray() as T[],
  );
}

/** Every row of every table the session keeps, to show that something changed nothing. */
export async function storageDump(ref: SessionRef): Promise<Record<string, unknown[]>> {
  return runInDurableObject(stubOf(ref), (_instance: SessionObject, state) => {
    const tables = state.storage.sql
      .exec<{ name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%' ORDER BY name`,
      )
      .toArray()
      .map((row) => row.name);
    return Object.fromEntries(
      tables.map((table) => [table, state.storage.sql.exec(`SELECT * FROM "${table}" ORDER BY 1`).toArray()]),
    );
  });
}

/** The time the object's alarm is set for, or null. */
export async function alarmOf(ref: SessionRef): Promise<number | null> {
  return runInDurableObject(stubOf(ref), (_instance: SessionObject, state) => state.storage.getAlarm());
}

/** Lets time pass for a waiting model retry: it becomes due now, and the outage began `ago` ms before. */
export async function passRetryTime(ref: SessionRef, ago = 0): Promise<void> {
  await runInDurableObject<SessionObject, void>(stubOf(ref), (_instance, state) => {
    const row = state.storage.sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = 'turn'`).one();
    const turn = JSON.parse(row.value);
    turn.retry.at = Date.now() - 1;
    turn.retry.since -= ago;
    state.storage.sql.exec(`UPDATE meta SET value = ? WHERE key = 'turn'`, JSON.stringify(turn));
  });
}

/** Events of one type a device received. */
export function eventsOf<T extends SessionEvent["type"]>(device: Device, type: T) {
  return device.events.filter((event): event is Extract<SessionEvent, { type: T }> => event.type === type);
}

/** How many SSE streams the object's instance holds open, and whether their heartbeat timer runs. */
export async function streamStatus(ref: SessionRef): Promise<{ open: number; beating: boolean }> {
  return runInDurableObject(stubOf(ref), (instance: SessionObject) => inside(instance).streamStatus());
}

/**
 * Moves the object's clock forward to `at` (or by `by` ms), without waiting: deadlines, retries and
 * budgets read that clock. A new instance (after eviction) starts at the wall clock again.
 */
export async function advanceClock(ref: SessionRef, to: { at: number } | { by: number }): Promise<number> {
  return runInDurableObject<SessionObject, number>(stubOf(ref), (instance) => {
    if ("at" in to) instance.clock.advanceTo(to.at);
    else instance.clock.advance(to.by);
    return instance.clock.now();
  });
}
