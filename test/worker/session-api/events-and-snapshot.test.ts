import { describe, expect, it } from "vitest";
import type { EventsPage, SessionEvent, SessionSnapshot } from "../../../src/protocol";
import { api, type CreatedSession, connect, createSession, textReply } from "../../helpers/session-harness";
import { expectContiguous, pausedSession, waitForIdle } from "./channel-fixtures";

async function getJson<T>(session: CreatedSession, path: string): Promise<T> {
  const response = await api("GET", `/api/sessions/${session.sessionId}${path}`, { token: session.token });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** A scripted session that has run two short turns; returns every event a device saw live. */
async function sessionWithTwoTurns() {
  const session = await createSession({
    permissionMode: "acceptEdits",
    script: [textReply("One.", { textChunkSize: 1 }), textReply("Two.", { textChunkSize: 1 })],
  });
  const device = await connect(session);
  await device.request({ type: "send_message", text: "first" });
  await waitForIdle(device, 1);
  await device.request({ type: "send_message", text: "second" });
  await waitForIdle(device, 2);
  device.close();
  return { session, live: device.events };
}

describe("GET /api/sessions/:id/events", () => {
  it("pages through the whole log with hasMore and lastSeq, matching what devices saw live", async () => {
    const { session, live } = await sessionWithTwoTurns();
    const lastSeq = live.at(-1)?.seq ?? 0;
    expect(lastSeq).toBeGreaterThan(10);

    const collected: SessionEvent[] = [];
    let after = 0;
    const pages: EventsPage[] = [];
    for (;;) {
      const page = await getJson<EventsPage>(session, `/events?after=${after}&limit=4`);
      pages.push(page);
      expect(page.lastSeq).toBe(lastSeq);
      collected.push(...(page.events as SessionEvent[]));
      if (!page.hasMore) break;
      expect(page.events).toHaveLength(4);
      after = (page.events.at(-1) as SessionEvent).seq;
    }
    expect(pages).toHaveLength(Math.ceil(lastSeq / 4));
    expectContiguous(
      collected.map((e) => e.seq),
      1,
    );
    expect(collected).toEqual(live);
  });

  it("says hasMore is false when a page ends exactly at the last event", async () => {
    const { session, live } = await sessionWithTwoTurns();
    const lastSeq = live.at(-1)?.seq ?? 0;
    const page = await getJson<EventsPage>(session, `/events?after=${lastSeq - 3}&limit=3`);
    expect(page.events.map((e) => (e as SessionEvent).seq)).toEqual([lastSeq - 2, lastSeq - 1, lastSeq]);
    expect(page.hasMore).toBe(false);
    const short = await getJson<EventsPage>(session, `/events?after=${lastSeq - 3}&limit=2`);
    expect(short.hasMore).toBe(true);
  });

  it("returns no events and no error for a cursor at or beyond the end", async () => {
    const { session, live } = await sessionWithTwoTurns();
    const lastSeq = live.at(-1)?.seq ?? 0;
    for (const after of [lastSeq, lastSeq + 100]) {
      expect(await getJson<EventsPage>(session, `/events?after=${after}`)).toEqual({
        events: [],
        lastSeq,
        hasMore: false,
      });
    }
  });

  it("returns the whole log from the start when no cursor is given", async () => {
    const { session, live } = await sessionWithTwoTurns();
    const page = await getJson<EventsPage>(session, "/events");
    expect(page).toEqual({ events: live, lastSeq: live.at(-1)?.seq, hasMore: false });
  });

  it("is empty for a session with no activity yet", async () => {
    const session = await createSession({ script: [] });
    expect(await getJson<EventsPage>(session, "/events")).toEqual({ events: [], lastSeq: 0, hasMore: false });
  });
});

describe("GET /api/sessions/:id", () => {
  it("returns the snapshot of an idle scripted session: status, mode, lastSeq, model and no demo flag", async () => {
    const { session, live } = await sessionWithTwoTurns();
    const snapshot = await getJson<SessionSnapshot>(session, "");
    expect(snapshot).toMatchObject({
      sessionId: session.sessionId,
      status: "idle",
      mode: "acceptEdits",
      lastSeq: live.at(-1)?.seq,
      pending: [],
      queued: 0,
      model: "scripted",
      demo: false,
      interactionTimeoutMs: 600_000,
    });
    expect(snapshot.createdAt).toBeLessThanOrEqual(snapshot.serverTime);
  });

  it("shows a paused session as awaiting_input with its pending interaction and countdown", async () => {
    const session = await pausedSession();
    const snapshot = await getJson<SessionSnapshot>(session, "");
    expect(snapshot.status).toBe("awaiting_input");
    expect(snapshot.pending).toEqual([
      expect.objectContaining({
        toolCallId: "toolu_pending",
        kind: "approval",
        toolName: "notes_write",
        status: "pending",
      }),
    ]);
    const [pending] = snapshot.pending;
    expect((pending?.expiresAt ?? 0) - (pending?.createdAt ?? 0)).toBe(600_000);
  });

  it("reflects a permission mode change made over PATCH", async () => {
    const session = await createSession({ script: [] });
    const patched = await api("PATCH", `/api/sessions/${session.sessionId}`, {
      token: session.token,
      body: { permissionMode: "plan" },
    });
    expect(patched.status).toBe(200);
    expect(await getJson<SessionSnapshot>(session, "")).toMatchObject({ mode: "plan", lastSeq: 1 });
    const [event] = (await getJson<EventsPage>(session, "/events")).events as SessionEvent[];
    expect(event).toMatchObject({ seq: 1, type: "session_status", data: { mode: "plan", status: "idle" } });
  });

  it("agrees with the hello snapshot a connecting device receives", async () => {
    const { session } = await sessionWithTwoTurns();
    const device = await connect(session);
    const { serverTime: _a, ...fromHttp } = await getJson<SessionSnapshot>(session, "");
    const { serverTime: _b, ...fromHello } = device.hello?.snapshot ?? ({} as SessionSnapshot);
    expect(fromHello).toEqual(fromHttp);
    device.close();
  });

  it("marks a session without a script as running the offline demo model", async () => {
    const session = await createSession();
    expect(await getJson<SessionSnapshot>(session, "")).toMatchObject({ model: "demo", demo: true });
  });
});
