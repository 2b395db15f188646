import { exports } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { api, connect, createSession, type Device, ORIGIN, textReply } from "../../helpers/session-harness";
import { streamStatus } from "../../helpers/session-object-probe";
import { SseReader } from "../../helpers/sse-reader";
import { mintLink } from "../access/access-fixtures";
import { expectContiguous, storageFingerprint, waitForIdle } from "./channel-fixtures";

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup) await step();
  cleanup = [];
});

function stream(
  session: { sessionId: string; token: string },
  options: { query?: Record<string, string>; headers?: Record<string, string>; bearer?: boolean } = {},
): Promise<Response> {
  const query = new URLSearchParams(options.query);
  const headers: Record<string, string> = { ...options.headers };
  if (options.bearer !== false) headers.authorization = `Bearer ${session.token}`;
  return exports.default.fetch(`${ORIGIN}/api/sessions/${session.sessionId}/events/stream?${query}`, {
    headers,
  });
}

async function open(...args: Parameters<typeof stream>): Promise<SseReader> {
  const response = await stream(...args);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const reader = new SseReader(response);
  cleanup.push(() => reader.close());
  return reader;
}

async function watcher(session: { sessionId: string; token: string }): Promise<Device> {
  const device = await connect(session, { device: "watcher" });
  cleanup.push(() => device.close());
  return device;
}

async function send(session: { sessionId: string; token: string }, text: string): Promise<void> {
  const response = await api("POST", `/api/sessions/${session.sessionId}/messages`, {
    token: session.token,
    body: { text },
  });
  expect(response.status).toBe(202);
}

function lastSeq(device: Device): number {
  return device.events.at(-1)?.seq ?? 0;
}

describe("the SSE event stream", () => {
  it("resumes after ?after= with exactly the missed events, ids equal to seqs, then continues live", async () => {
    const session = await createSession({
      script: [textReply("First answer."), textReply("Second answer.")],
    });
    const device = await watcher(session);
    await send(session, "one");
    await waitForIdle(device, 1);
    const seen = 3;

    const reader = await open(session, { query: { after: String(seen) } });
    await reader.until(() => reader.events.at(-1)?.seq === lastSeq(device), "the replay");
    expect(reader.hello?.snapshot.lastSeq).toBe(lastSeq(device));
    expect(reader.events).toEqual(device.events.filter((e) => e.seq > seen));
    expect(reader.messages.filter((m) => m.event === "message").map((m) => Number(m.id))).toEqual(
      reader.events.map((e) => e.seq),
    );

    await send(session, "two");
    await waitForIdle(device, 2);
    await reader.until(() => reader.events.at(-1)?.seq === lastSeq(device), "the live events");
    expectContiguous(
      reader.events.map((e) => e.seq),
      seen + 1,
    );
    expect(reader.events).toEqual(device.events.filter((e) => e.seq > seen));
  });

  it("resumes from Last-Event-ID, which wins over ?after= as an EventSource reconnect sends both", async () => {
    const session = await createSession({ script: [textReply("Hello there.")] });
    const device = await watcher(session);
    await send(session, "hi");
    await waitForIdle(device, 1);
    const reader = await open(session, { query: { after: "0" }, headers: { "last-event-id": "4" } });
    await reader.until(() => reader.events.at(-1)?.seq === lastSeq(device), "the replay");
    expect(reader.events[0]?.seq).toBe(5);
    expect(reader.events).toEqual(device.events.filter((e) => e.seq > 4));
  });

  it("loses and repeats nothing when it connects in the middle of a streaming turn", async () => {
    const session = await createSession({
      script: [textReply("word ".repeat(60), { textChunkSize: 5, paceMs: 5 })],
    });
    const device = await watcher(session);
    await send(session, "talk slowly");
    await device.waitForEvent("text_delta");
    const reader = await open(session, { query: { after: "1" } });
    await waitForIdle(device, 1);
    await reader.until(() => reader.events.at(-1)?.seq === lastSeq(device), "the end of the turn");
    expectContiguous(
      reader.events.map((e) => e.seq),
      2,
    );
  });

  it("takes the token as ?token= for EventSource, which cannot set headers", async () => {
    const session = await createSession();
    const reader = await open(session, { query: { token: session.token }, bearer: false });
    await reader.until(() => reader.hello !== null, "hello");
    expect(reader.hello?.snapshot.sessionId).toBe(session.sessionId);
    const wrong = await stream(session, { query: { token: "A".repeat(43) }, bearer: false });
    expect(wrong.status).toBe(403);
  });

  it("refuses a Last-Event-ID or after that is not an event seq with 400, changing nothing", async () => {
    const session = await createSession({ script: [textReply("Stored.")] });
    const device = await watcher(session);
    await send(session, "store something");
    await waitForIdle(device, 1);
    const before = await storageFingerprint(session.sessionId);
    for (const bad of [
      { headers: { "last-event-id": "seven" } },
      { headers: { "last-event-id": "-1" } },
      { query: { after: "1.5" } },
    ]) {
      const response = await stream(session, bad);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("invalid_input");
      expect(body.error.message).toMatch(/Last-Event-ID|after/);
    }
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });

  // The worker tests run with SSE_HEARTBEAT_MS=250 (vitest.config.ts); the default is 15 s.
  it("sends a stream that stays idle a `: heartbeat` comment each interval, and no event", async () => {
    const session = await createSession();
    const reader = await open(session);
    await reader.until(() => reader.comments.length >= 2, "two heartbeats");
    expect(reader.comments.slice(0, 2)).toEqual([
      expect.stringMatching(/^heartbeat \d+$/),
      expect.stringMatching(/^heartbeat \d+$/),
    ]);
    expect(reader.messages.map((m) => m.event)).toEqual(["hello"]);
  });

  it("keeps beating for the streams still open, and stops the heartbeat timer when the last one closes", async () => {
    const session = await createSession();
    const viewer = await mintLink(session, { role: "view" });
    const leaving = await open(session);
    const staying = await open({ ...session, token: viewer.token });
    await leaving.until(() => leaving.comments.length >= 1, "a heartbeat on the first stream");
    expect(await streamStatus(session)).toEqual({ open: 2, beating: true });

    // The first client goes away: its stream is forgotten, the other one still gets heartbeats.
    await leaving.close();
    await expect.poll(() => streamStatus(session)).toEqual({ open: 1, beating: true });
    const heard = staying.comments.length;
    await staying.until(() => staying.comments.length > heard, "a heartbeat after the other stream left");

    // Revoking the link ends the last stream; the timer stops with it, not a beat later.
    const revoked = await api("DELETE", `/api/sessions/${session.sessionId}/links/${viewer.linkId}`, {
      token: session.token,
    });
    expect(revoked.status).toBe(200);
    expect(await streamStatus(session)).toEqual({ open: 0, beating: false });
  });
});
