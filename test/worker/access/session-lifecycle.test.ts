import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { SessionObject } from "../../../src/session/session-object";
import { runInDurableObject } from "../../helpers/run-in-object";
import { api, connect, createSession, textReply } from "../../helpers/session-harness";
import { alarmOf, eventsOf, sqlRows, stubOf } from "../../helpers/session-object-probe";
import { expectError, mintLink } from "./access-fixtures";

const DAY = 24 * 60 * 60 * 1000;

/** Moves every stored time of a session `ms` into the past, as if it had idled that long. */
async function age(sessionId: string, ms: number): Promise<void> {
  await runInDurableObject<SessionObject, void>(stubOf(sessionId), (_instance, state) => {
    state.storage.sql.exec(`UPDATE events SET at = at - ?`, ms);
    state.storage.sql.exec(
      `UPDATE meta SET value = CAST(CAST(value AS INTEGER) - ? AS TEXT) WHERE key IN ('created_at', 'retention_warned_for')`,
      ms,
    );
  });
}

async function tableCount(sessionId: string): Promise<number> {
  return runInDurableObject<SessionObject, number>(
    stubOf(sessionId),
    (_instance, state) =>
      state.storage.sql
        .exec(
          `SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'`,
        )
        .one().n as number,
  );
}

describe("deleting a session", () => {
  it("closes every socket, erases storage and the alarm, and the id answers 404 afterwards", async () => {
    const session = await createSession({ script: [textReply("Hello.")] });
    const link = await mintLink(session);
    const owner = await connect(session);
    const phone = await connect(session, { token: link.token });
    await owner.request({ type: "send_message", text: "hi" });
    await owner.waitForDone();
    expect(await alarmOf(session)).not.toBeNull();

    const response = await api("DELETE", `/api/sessions/${session.sessionId}`, { token: session.token });
    expect(response.status).toBe(200);
    await owner.until(() => owner.closed && phone.closed, "both sockets to close");
    expect([owner.closeCode, phone.closeCode]).toEqual([4004, 4004]);
    expect(await alarmOf(session)).toBeNull();
    expect(await tableCount(session.sessionId)).toBe(0);

    const path = `/api/sessions/${session.sessionId}`;
    await expectError(await api("GET", path, { token: session.token }), 404, "unknown_session");
    await expectError(await api("GET", `${path}/events`, { token: session.token }), 404, "unknown_session");
    await expectError(await api("DELETE", path, { token: session.token }), 404, "unknown_session");
    await expect(connect(session)).rejects.toThrow(/404.*unknown_session/);
    // Asking about an erased session writes nothing back.
    expect(await tableCount(session.sessionId)).toBe(0);
  });
});

describe("exporting a session", () => {
  it("gives the owner the transcript and the whole event log as JSON", async () => {
    const session = await createSession({ script: [textReply("Exported answer.")] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "remember this" });
    await device.waitForDone();
    const response = await api("GET", `/api/sessions/${session.sessionId}/export`, { token: session.token });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain(`parley-${session.sessionId}.json`);
    const exported = (await response.json()) as {
      transcript: Array<{ role: string; content: unknown }>;
      events: Array<{ seq: number; type: string }>;
      snapshot: { sessionId: string };
    };
    expect(exported.snapshot.sessionId).toBe(session.sessionId);
    expect(exported.transcript).toEqual([
      { role: "user", content: [{ type: "text", text: "remember this" }] },
      { role: "assistant", content: [{ type: "text", text: "Exported answer." }] },
    ]);
    expect(exported.events.map((event) => event.seq)).toEqual(device.events.map((event) => event.seq));
    device.close();
  });
});

describe("retention of idle sessions", () => {
  it("warns every device a day before expiry, then erases the idle session on the same alarm", async () => {
    const session = await createSession({ script: [textReply("Hello.")] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "hi" });
    await device.waitForDone();
    await device.waitForEvent("session_status", (e) => e.data.status === "idle");
    const [last] = await sqlRows<{ at: number }>(session, `SELECT MAX(at) AS at FROM events`);
    const lastEventAt = last?.at ?? 0;
    // Armed from the last event when the alarm was last re-armed; an alarm that comes early finds
    // nothing due and re-arms, so it may trail the very last event by the turn's final moments.
    const alarm = (await alarmOf(session)) ?? 0;
    expect(alarm).toBeLessThanOrEqual(lastEventAt + 29 * DAY);
    expect(alarm).toBeGreaterThan(lastEventAt + 29 * DAY - 1_000);

    // Idle for 29 days and a bit: the warning is due.
    await age(session.sessionId, 29 * DAY + 1000);
    expect(await runDurableObjectAlarm(stubOf(session))).toBe(true);
    const warning = await device.waitForEvent("session_expiring");
    expect(warning.data.expiresAt).toBe(lastEventAt - (29 * DAY + 1000) + 30 * DAY);
    // The warning is not activity: the alarm now points at the expiry itself.
    expect(await alarmOf(session)).toBe(warning.data.expiresAt);
    // A second delivery of the same alarm warns no one twice.
    await runInDurableObject<SessionObject, void>(stubOf(session), (instance) => instance.alarm());
    expect(eventsOf(device, "session_expiring")).toHaveLength(1);

    await age(session.sessionId, DAY);
    await runInDurableObject<SessionObject, void>(stubOf(session), (instance) => instance.alarm());
    await device.until(() => device.closed, "the socket to close");
    expect(device.closeCode).toBe(4004);
    await expectError(
      await api("GET", `/api/sessions/${session.sessionId}`, { token: session.token }),
      404,
      "unknown_session",
    );
  });

  it("keeps a session that is used again after the warning", async () => {
    const session = await createSession({ script: [textReply("One."), textReply("Two.")] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "first" });
    await device.waitForDone();
    await age(session.sessionId, 29 * DAY + 1000);
    await runInDurableObject<SessionObject, void>(stubOf(session), (instance) => instance.alarm());
    await device.waitForEvent("session_expiring");
    await device.request({ type: "send_message", text: "still here" });
    await device.waitForDone(2);
    await runInDurableObject<SessionObject, void>(stubOf(session), (instance) => instance.alarm());
    expect(await sqlRows(session, `SELECT key FROM meta WHERE key = 'created_at'`)).toHaveLength(1);
    expect(await alarmOf(session)).toBeGreaterThan(Date.now() + 28 * DAY);
    device.close();
  });
});
