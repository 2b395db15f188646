import { afterEach, describe, expect, it } from "vitest";
import type { EventsPage, SessionEvent } from "../../../src/protocol";
import { api, connect, createSession, type Device, textReply } from "../../helpers/session-harness";
import { expectContiguous, streamedText } from "./channel-fixtures";

const REPLIES = ["First answer, streamed in pieces.", "Second answer.", "Third and last answer."];

let open: Device[] = [];
afterEach(() => {
  for (const device of open) device.close();
  open = [];
});

async function storedEvents(session: { sessionId: string; token: string }): Promise<EventsPage> {
  const response = await api("GET", `/api/sessions/${session.sessionId}/events`, { token: session.token });
  expect(response.status).toBe(200);
  return (await response.json()) as EventsPage;
}

/** Three messages sent from rotating devices; every device must end up with the stored log, live. */
async function expectIdenticalStreams(deviceCount: number): Promise<void> {
  const session = await createSession({
    script: REPLIES.map((text) => textReply(text, { textChunkSize: 4 })),
  });
  const devices = await Promise.all(
    Array.from({ length: deviceCount }, (_, i) => connect(session, { device: `device-${i}` })),
  );
  open.push(...devices);

  const acks = await Promise.all(
    REPLIES.map((_, i) =>
      (devices[i % devices.length] as Device).request({ type: "send_message", text: `message ${i}` }),
    ),
  );
  expect(acks.map((ack) => ack.ok)).toEqual([true, true, true]);
  await Promise.all(devices.map((device) => device.waitForDone(REPLIES.length)));

  const page = await storedEvents(session);
  const stored = page.events as SessionEvent[];
  await Promise.all(
    devices.map((device) =>
      device.until(() => device.events.at(-1)?.seq === page.lastSeq, `seq ${page.lastSeq}`),
    ),
  );
  expectContiguous(
    stored.map((e) => e.seq),
    1,
  );
  for (const device of devices) {
    // Same seqs, same order, same payloads — and exactly what storage holds.
    expect(device.events).toEqual(stored);
  }
  expect(streamedText(stored)).toBe(REPLIES.join(""));
  expect(stored.filter((e) => e.type === "user_message").map((e) => e.data.text)).toEqual([
    "message 0",
    "message 1",
    "message 2",
  ]);
}

describe("fan-out to every socket of a session", () => {
  it("gives two sockets the same events in the same order as the stored log", async () => {
    await expectIdenticalStreams(2);
  });

  it("gives ten sockets the same events in the same order as the stored log", async () => {
    await expectIdenticalStreams(10);
  });

  it("records which device sent each message in the event every device receives", async () => {
    const session = await createSession({ script: [textReply("ok")] });
    const [phone, laptop] = await Promise.all([
      connect(session, { device: "phone" }),
      connect(session, { device: "laptop" }),
    ]);
    open.push(phone, laptop);
    await phone.request({ type: "send_message", text: "from the phone" });
    const seen = await laptop.waitForEvent("user_message");
    expect(seen.data).toMatchObject({ text: "from the phone", deviceId: "phone", queued: false });
    expect(phone.event("user_message")).toEqual(seen);
  });
});
