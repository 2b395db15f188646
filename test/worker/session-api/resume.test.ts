import { afterEach, describe, expect, it } from "vitest";
import type { SessionEvent } from "../../../src/protocol";
import { api, connect, createSession, type Device, textReply } from "../../helpers/session-harness";
import { expectContiguous, waitForIdle, waitForSeq } from "./channel-fixtures";

let open: Device[] = [];
afterEach(() => {
  for (const device of open) device.close();
  open = [];
});

async function scriptedSession(replies: number) {
  return createSession({
    script: Array.from({ length: replies }, (_, i) => textReply(`Reply number ${i}.`, { textChunkSize: 3 })),
  });
}

/** Connects and remembers the device so it is closed after the test. */
async function join(...args: Parameters<typeof connect>): Promise<Device> {
  const device = await connect(...args);
  open.push(device);
  return device;
}

async function sendOver(session: { sessionId: string; token: string }, text: string): Promise<void> {
  const response = await api("POST", `/api/sessions/${session.sessionId}/messages`, {
    token: session.token,
    body: { text },
  });
  expect(response.status).toBe(202);
}

describe("resuming a session's event stream", () => {
  it("replays exactly the missed events to a socket that reconnects with after, then continues live", async () => {
    const session = await scriptedSession(3);
    const observer = await join(session, { device: "observer" });
    const roaming = await join(session, { device: "roaming" });
    await roaming.request({ type: "send_message", text: "one" });
    await waitForIdle(observer, 1);
    await waitForSeq(roaming, observer.events.at(-1)?.seq ?? 0);
    const seen = roaming.events.at(-1)?.seq ?? 0;
    roaming.close();

    await observer.request({ type: "send_message", text: "two while away" });
    await waitForIdle(observer, 2);
    const missed = observer.events.filter((e) => e.seq > seen);
    expect(missed.length).toBeGreaterThan(0);

    const back = await join(session, { device: "roaming", after: seen });
    expect(back.hello?.snapshot.lastSeq).toBe(observer.events.at(-1)?.seq);
    await waitForSeq(back, missed.at(-1)?.seq ?? 0);
    expect(back.events[0]?.seq).toBe(seen + 1);
    expect(back.events).toEqual(missed);

    await back.request({ type: "send_message", text: "three, live" });
    await waitForIdle(observer, 3);
    await waitForSeq(back, observer.events.at(-1)?.seq ?? 0);
    expectContiguous(back.seqs(), seen + 1);
    expect(back.events).toEqual(observer.events.filter((e) => e.seq > seen));
  });

  it("sends nothing old to a socket that reconnects with after set to the latest seq", async () => {
    const session = await scriptedSession(2);
    const first = await join(session);
    await first.request({ type: "send_message", text: "one" });
    await waitForIdle(first, 1);
    const latest = first.events.at(-1)?.seq ?? 0;

    const again = await join(session, { after: latest });
    expect(again.hello?.snapshot.lastSeq).toBe(latest);
    // Replay frames precede any ack, so once this ack is in, no replay can still arrive.
    expect((await again.request({ type: "set_permission_mode", mode: "default" })).ok).toBe(true);
    expect(again.frames.filter((f) => (f as { type?: string }).type === "batch")).toEqual([]);
    expect(again.events).toEqual([]);

    await again.request({ type: "send_message", text: "two" });
    await waitForIdle(again, 1);
    expect(again.events[0]?.seq).toBe(latest + 1);
    expectContiguous(again.seqs(), latest + 1);
  });

  it("replays exactly the events after the cursor when an open socket sends resume", async () => {
    const session = await scriptedSession(1);
    const device = await join(session);
    await device.request({ type: "send_message", text: "one" });
    await waitForIdle(device, 1);
    const all = [...device.events];
    const latest = all.at(-1)?.seq ?? 0;
    expect(latest).toBeGreaterThan(4);

    const before = device.events.length;
    const ack = await device.request({ type: "resume", after: 3 });
    expect(ack).toMatchObject({ ok: true, result: { lastSeq: latest } });
    const replayed = device.events.slice(before);
    expect(replayed).toEqual(all.filter((e) => e.seq > 3));

    const empty = device.events.length;
    expect(await device.request({ type: "resume", after: latest })).toMatchObject({ ok: true });
    expect(device.events.length).toBe(empty);
  });

  it("joins a socket mid-stream with the replay followed by live events, without gap or duplicate", async () => {
    const session = await createSession({
      script: [
        textReply("A reply streamed slowly enough to join in the middle of it.", {
          textChunkSize: 1,
          paceMs: 4,
        }),
      ],
    });
    const observer = await join(session);
    await observer.request({ type: "send_message", text: "stream please" });
    await observer.waitForEvent("text_delta");
    const cursor = observer.events.at(-1)?.seq ?? 0;

    const [fromStart, fromCursor] = await Promise.all([
      join(session, { after: 0 }),
      join(session, { after: cursor }),
    ]);
    expect(fromStart.hello?.snapshot.status).toBe("running");
    await waitForIdle(observer, 1);
    const last = observer.events.at(-1)?.seq ?? 0;
    expect(fromStart.hello?.snapshot.lastSeq).toBeLessThan(last);
    await Promise.all([waitForSeq(fromStart, last), waitForSeq(fromCursor, last)]);
    expect(fromStart.events).toEqual(observer.events);
    expect(fromCursor.events).toEqual(observer.events.filter((e) => e.seq > cursor));
  });

  it("loses and repeats nothing across several reconnects in a row", async () => {
    const rounds = 4;
    const session = await scriptedSession(2 * rounds - 1);
    const received: SessionEvent[] = [];
    let cursor = 0;
    for (let round = 0; round < rounds; round++) {
      const device = await join(session, { device: "flaky", after: cursor });
      // The message of the previous round ran while no socket was open.
      if (round > 0) await waitForIdle(device, 1);
      await device.request({ type: "send_message", text: `round ${round}` });
      await waitForIdle(device, round > 0 ? 2 : 1);
      expect(device.events[0]?.seq).toBe(cursor + 1);
      received.push(...device.events);
      cursor = device.events.at(-1)?.seq ?? cursor;
      device.close();
      if (round < rounds - 1) await sendOver(session, `while away ${round}`);
    }
    expectContiguous(
      received.map((e) => e.seq),
      1,
    );
    const page = await api("GET", `/api/sessions/${session.sessionId}/events`, { token: session.token });
    const stored = ((await page.json()) as { events: SessionEvent[] }).events;
    // The final "while away" message was never sent, so what the device saw is the whole log.
    expect(received).toEqual(stored);
  });
});
