import { evictDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import type { EventsPage, SessionEvent } from "../../../src/protocol";
import { api, connect, createSession, type Device, textReply } from "../../helpers/session-harness";
import { modelRequests } from "../../helpers/session-object-probe";
import { expectContiguous, sessionObject, streamedText, waitForIdle, waitForSeq } from "./channel-fixtures";

let open: Device[] = [];
afterEach(() => {
  for (const device of open) device.close();
  open = [];
});

async function join(...args: Parameters<typeof connect>): Promise<Device> {
  const device = await connect(...args);
  open.push(device);
  return device;
}

async function storedEvents(session: { sessionId: string; token: string }): Promise<SessionEvent[]> {
  const response = await api("GET", `/api/sessions/${session.sessionId}/events`, { token: session.token });
  expect(response.status).toBe(200);
  return ((await response.json()) as EventsPage).events as SessionEvent[];
}

/** A session with one finished turn, watched by two devices. */
async function sessionWithHistory() {
  const session = await createSession({
    script: [textReply("Before the eviction."), textReply("After the eviction.")],
  });
  const phone = await join(session, { device: "phone" });
  const laptop = await join(session, { device: "laptop" });
  await phone.request({ type: "send_message", text: "first" });
  await waitForIdle(phone, 1);
  await waitForSeq(laptop, phone.events.at(-1)?.seq ?? 0);
  const before = await storedEvents(session);
  expect(before).toEqual(phone.events);
  return { session, phone, laptop, before };
}

describe("a session after its Durable Object is evicted", () => {
  it("keeps hibernated sockets working: a new command gets its ack and every socket its events", async () => {
    const { session, phone, laptop, before } = await sessionWithHistory();
    await evictDurableObject(sessionObject(session.sessionId), { webSockets: "hibernate" });
    expect(phone.closed).toBe(false);

    const ack = await laptop.request({ type: "send_message", text: "second" });
    expect(ack).toMatchObject({ ok: true, result: { queued: false } });
    await waitForIdle(laptop, 2);
    await waitForSeq(phone, laptop.events.at(-1)?.seq ?? 0);
    expect(phone.events).toEqual(laptop.events);
    expectContiguous(phone.seqs(), 1);

    const after = phone.events.slice(before.length);
    // The device id lives in the socket's attachment, which hibernation keeps.
    expect(after[0]).toMatchObject({ type: "user_message", data: { text: "second", deviceId: "laptop" } });
    // The scripted model continues with its next reply: the call counter is stored, not in memory.
    expect(streamedText(after)).toBe("After the eviction.");
    expect(await storedEvents(session)).toEqual(phone.events);
  });

  it("keeps every stored event and replays all of them, to a new socket or a hibernated one, after eviction", async () => {
    const { session, phone, before } = await sessionWithHistory();
    await evictDurableObject(sessionObject(session.sessionId), { webSockets: "hibernate" });

    const fresh = await join(session, { after: 0 });
    expect(fresh.hello?.snapshot).toMatchObject({ status: "idle", lastSeq: before.at(-1)?.seq });
    await waitForSeq(fresh, before.at(-1)?.seq ?? 0);
    expect(fresh.events).toEqual(before);
    expect(await storedEvents(session)).toEqual(before);

    const seen = phone.events.length;
    const ack = await phone.request({ type: "resume", after: 2 });
    expect(ack).toMatchObject({ ok: true, result: { lastSeq: before.at(-1)?.seq } });
    expect(phone.events.slice(seen)).toEqual(before.filter((e) => e.seq > 2));
  });

  it("keeps every stored event when eviction closes the sockets, and reconnecting devices carry on", async () => {
    const { session, phone, laptop, before } = await sessionWithHistory();
    await evictDurableObject(sessionObject(session.sessionId), { webSockets: "close" });
    await phone.until(() => phone.closed, "phone socket closed");
    await laptop.until(() => laptop.closed, "laptop socket closed");
    expect(await storedEvents(session)).toEqual(before);

    const replayed = await join(session, { device: "phone", after: 0 });
    await waitForSeq(replayed, before.at(-1)?.seq ?? 0);
    expect(replayed.events).toEqual(before);

    const latest = before.at(-1)?.seq ?? 0;
    const resumed = await join(session, { device: "laptop", after: latest });
    const ack = await resumed.request({ type: "send_message", text: "second" });
    expect(ack.ok).toBe(true);
    await waitForIdle(resumed, 1);
    expectContiguous(resumed.seqs(), latest + 1);
    expect(streamedText(resumed.events)).toBe("After the eviction.");
    await waitForSeq(replayed, resumed.events.at(-1)?.seq ?? 0);
    expect(replayed.events.slice(before.length)).toEqual(resumed.events);
  });

  it("answers ping with pong before and after a hibernating eviction without the socket erroring", async () => {
    const session = await createSession({ script: [textReply("ok")] });
    const device = await join(session);
    device.sendRaw("ping");
    await device.until(() => device.frames.includes("pong"), "pong");

    await evictDurableObject(sessionObject(session.sessionId), { webSockets: "hibernate" });
    device.sendRaw("ping");
    await device.until(() => device.frames.filter((f) => f === "pong").length === 2, "second pong");
    // The runtime answers "ping" itself, so it never reaches the command parser (no error ack).
    expect(device.acks).toEqual([]);
    expect((await device.request({ type: "set_permission_mode", mode: "plan" })).ok).toBe(true);
    expect(device.closed).toBe(false);
  });

  it("sends the model the whole stored conversation from the instance that wakes after eviction", async () => {
    const { session, phone } = await sessionWithHistory();
    const stub = sessionObject(session.sessionId);
    await evictDurableObject(stub, { webSockets: "hibernate" });
    await phone.request({ type: "send_message", text: "second" });
    await waitForIdle(phone, 2);
    const requests = await modelRequests(stub);
    // Only the new instance's call is recorded, and it carries the turn the old instance ran.
    expect(requests).toHaveLength(1);
    expect(requests[0]?.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "first" }] },
      {
        role: "assistant",
        content: [expect.objectContaining({ type: "text", text: "Before the eviction." })],
      },
      { role: "user", content: [expect.objectContaining({ type: "text", text: "second" })] },
    ]);
  });
});
