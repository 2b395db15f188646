import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { EventStreams } from "../../../src/objects/event-streams";
import type { SessionObject } from "../../../src/session/session-object";
import { inside, runInDurableObject } from "../../helpers/run-in-object";
import { api, connect, createSession, ORIGIN, textReply } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";
import { SseReader } from "../../helpers/sse-reader";
import { expectContiguous, waitForIdle } from "./channel-fixtures";

/** The object's streams, rebuilt with a buffer of `bytes`, so a small backlog outgrows it. */
async function shrinkStreamBuffer(sessionId: string, bytes: number): Promise<void> {
  await runInDurableObject(stubOf(sessionId), (instance: SessionObject) => {
    const door = inside(instance);
    door.swap({ streams: new EventStreams(door.state.events, 60_000, bytes) });
  });
}

describe("an event stream opened behind a backlog larger than its buffer", () => {
  it("gets every stored event in order, then the live ones, with no gap and no repeat", async () => {
    const replies = Array.from({ length: 6 }, (_, i) => textReply(`${i} ${"backlog ".repeat(800)}`));
    const session = await createSession({ script: [...replies, textReply("Live at last.")] });
    const device = await connect(session, { device: "watcher" });
    for (let turn = 1; turn <= replies.length; turn++) {
      await device.request({ type: "send_message", text: `turn ${turn}` });
      await waitForIdle(device, turn);
    }
    const backlog = device.events.map((event) => JSON.stringify(event)).join("").length;
    expect(backlog).toBeGreaterThan(8 * 4096);

    await shrinkStreamBuffer(session.sessionId, 4096);
    const response = await exports.default.fetch(
      `${ORIGIN}/api/sessions/${session.sessionId}/events/stream`,
      {
        headers: { authorization: `Bearer ${session.token}` },
      },
    );
    const reader = new SseReader(response);
    const last = device.events.at(-1)?.seq ?? 0;
    await reader.until(() => reader.events.at(-1)?.seq === last, "the whole backlog");
    expect(reader.events).toEqual(device.events);

    const sent = await api("POST", `/api/sessions/${session.sessionId}/messages`, {
      token: session.token,
      body: { text: "and now?" },
    });
    expect(sent.status).toBe(202);
    await waitForIdle(device, replies.length + 1);
    await reader.until(() => reader.events.at(-1)?.seq === device.events.at(-1)?.seq, "the live turn");
    expectContiguous(
      reader.events.map((event) => event.seq),
      1,
    );
    expect(reader.events).toEqual(device.events);
    await reader.close();
    device.close();
  });
});
