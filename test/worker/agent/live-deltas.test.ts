// Live model deltas (docs/architecture.md#live-deltas): every delta reaches devices at once as a `delta` frame, stored
// `text_delta` events stay coalesced, and a device merging both by offset — through the web
// client's own reducer — shows exactly the model's text across joins, restarts and pauses.
import { evictDurableObject, runDurableObjectAlarm } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { DeltaFrame, HelloFrame, SessionEvent } from "../../../src/protocol";
import type { SessionObject } from "../../../src/session/session-object";
import { initialView, reduceView, type SessionView } from "../../../web/src/session-state";
import { inside, runInDurableObject } from "../../helpers/run-in-object";
import { connect, createSession, type Device, ORIGIN, textReply } from "../../helpers/session-harness";
import { SseReader } from "../../helpers/sse-reader";
import { eventsOf, stubOf } from "./agent-harness";

/** Every frame the connections received, fed in arrival order to one web page's reducer. */
function viewOf(...connections: Device[]): SessionView {
  return viewsOf(...connections).at(-1) ?? initialView();
}

/** The page's view after each frame, in order. */
function viewsOf(...connections: Device[]): SessionView[] {
  let view = initialView();
  const views: SessionView[] = [];
  for (const raw of connections.flatMap((device) => device.frames)) {
    if (raw === "pong") continue;
    const frame = raw as { type: string; seq?: number; events?: SessionEvent[] };
    if (frame.type === "hello")
      view = reduceView(view, { type: "hello", frame: frame as HelloFrame, receivedAt: Date.now() });
    else if (frame.type === "batch") view = reduceView(view, { type: "events", events: frame.events ?? [] });
    else if (frame.type === "delta") view = reduceView(view, { type: "delta", frame: frame as DeltaFrame });
    else if (typeof frame.seq === "number")
      view = reduceView(view, { type: "events", events: [frame as SessionEvent] });
    views.push(view);
  }
  return views;
}

/** What the page shows of each text block after each frame: never a gap, always the model's words. */
function expectNoGapEver(expected: string, ...connections: Device[]): void {
  for (const view of viewsOf(...connections)) {
    for (const item of view.items.values()) {
      if (item.kind !== "assistant") continue;
      expect(item.ahead).toEqual([]);
      expect(expected.startsWith(item.text)).toBe(true);
    }
  }
}

/** The assistant text a page fed by these connections shows, block after block. */
function shownText(...connections: Device[]): string {
  const view = viewOf(...connections);
  return view.order
    .map((id) => view.items.get(id))
    .map((item) => (item?.kind === "assistant" ? item.text : ""))
    .join("");
}

function deltas(device: Device): DeltaFrame[] {
  return device.frames.filter((f): f is DeltaFrame => (f as { type?: string }).type === "delta");
}

/** Receipt times (ms) of frames of each kind, recorded from now on. */
function clockFrames(device: Device): Array<{ at: number; frame: { type: string; seq?: number } }> {
  const seen: Array<{ at: number; frame: { type: string; seq?: number } }> = [];
  device.socket.addEventListener("message", (message) => {
    if (typeof message.data === "string" && message.data !== "pong")
      seen.push({ at: Date.now(), frame: JSON.parse(message.data) });
  });
  return seen;
}

const LONG = Array.from({ length: 60 }, (_, i) => `word${i} `).join("");

describe("live deltas", () => {
  it("sends each model delta live with its offset, and stores far fewer events covering the same text", async () => {
    const session = await createSession({ script: [textReply(LONG, { textChunkSize: 3, paceMs: 2 })] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    await device.waitForDone();

    const live = deltas(device);
    expect(live.length).toBe(Math.ceil(LONG.length / 3));
    expect(live.map((d) => d.text).join("")).toBe(LONG);
    let offset = 0;
    for (const delta of live) {
      expect(delta).toMatchObject({ call: 1, index: 0, offset });
      offset += delta.text.length;
    }
    const stored = eventsOf(device, "text_delta");
    expect(stored.length).toBeLessThan(live.length / 5);
    expect(stored.map((e) => e.data.text).join("")).toBe(LONG);
    expect(shownText(device)).toBe(LONG);
  });

  it("tells live batching how many devices a live frame reached, so many devices get fuller frames", async () => {
    const session = await createSession();
    const devices = await Promise.all(Array.from({ length: 3 }, () => connect(session)));
    const frame: DeltaFrame = { type: "delta", turnId: "turn_x", call: 1, index: 0, offset: 0, text: "hi" };
    const reached = await runInDurableObject(stubOf(session), (instance: SessionObject) =>
      inside(instance).state.events.sendLive(frame),
    );
    // src/agent/live-batcher.ts holds the next frame longer the more devices this one reached.
    expect(reached).toBe(3);
    for (const device of devices) await device.until(() => deltas(device).length === 1, "the live frame");
    for (const device of devices) expect(deltas(device)).toEqual([frame]);
  });

  it("stores nothing while the text flows, and gives a device that joins mid-stream all of it as one delta, then live", async () => {
    const session = await createSession({ script: [textReply(LONG, { textChunkSize: 3, paceMs: 8 })] });
    const first = await connect(session);
    const started = Date.now();
    await first.request({ type: "send_message", text: "go" });
    await first.until(() => deltas(first).length >= 40, "text streaming");
    const late = await connect(session, { after: 0 });
    await Promise.all([first.waitForDone(), late.waitForDone()]);
    const seconds = (Date.now() - started) / 1000;

    // The text was stored when the block ended, or when a busy machine stalled the stream long
    // enough to count as a pause (at most 10 a second), never every few deltas: few writes for a
    // live frame to wait behind.
    expect(eventsOf(first, "text_delta").length).toBeLessThan(deltas(first).length / 5);
    expect(eventsOf(first, "text_delta").length).toBeLessThanOrEqual(1 + 10 * seconds);
    expect(deltas(late)[0]?.text.length).toBeGreaterThan(0);
    expect(shownText(first)).toBe(LONG);
    expect(shownText(late)).toBe(LONG);
    expectNoGapEver(LONG, late);
  });

  it("while an event stream reads stored text, a device joining mid-stream gets stored groups, the unstored rest, then live", async () => {
    const session = await createSession({ script: [textReply(LONG, { textChunkSize: 3, paceMs: 8 })] });
    const response = await exports.default.fetch(
      `${ORIGIN}/api/sessions/${session.sessionId}/events/stream?after=0`,
      { headers: { authorization: `Bearer ${session.token}` } },
    );
    const reader = new SseReader(response);
    try {
      const first = await connect(session);
      await first.request({ type: "send_message", text: "go" });
      // Join after some text is stored and more is only buffered.
      await first.until(
        () => first.event("text_delta") && deltas(first).length >= 40,
        "stored text and more",
      );
      const late = await connect(session, { after: 0 });
      await Promise.all([first.waitForDone(), late.waitForDone()]);

      // The join is answered with the text not stored yet, as one delta, before any later live one.
      const joinDelta = deltas(late)[0];
      expect(joinDelta?.offset).toBeGreaterThan(0);
      expect(shownText(first)).toBe(LONG);
      expect(shownText(late)).toBe(LONG);
      // Without the unstored rest, the late page would wait on a gap until the next stored group.
      expectNoGapEver(LONG, late);
    } finally {
      await reader.close();
    }
  });

  it("shows exactly the model's text on a page whose socket drops mid-stream and resumes from its cursor", async () => {
    const session = await createSession({ script: [textReply(LONG, { textChunkSize: 3, paceMs: 8 })] });
    const watcher = await connect(session);
    const before = await connect(session);
    await before.request({ type: "send_message", text: "go" });
    await before.until(() => deltas(before).length >= 30, "text streaming");
    before.close();
    // Text streams on while the page is offline.
    const missed = deltas(watcher).length;
    await watcher.until(() => deltas(watcher).length >= missed + 15, "text streamed while offline");
    const after = await connect(session, { after: before.events.at(-1)?.seq ?? 0 });
    await Promise.all([watcher.waitForDone(), after.waitForDone()]);

    const view = viewOf(before, after);
    const blocks = [...view.items.values()].filter((item) => item.kind === "assistant");
    expect(blocks.map((item) => item.text)).toEqual([LONG]);
    expectNoGapEver(LONG, before, after);
  });

  it("drops the live text of a call lost mid-stream once turn_restarted arrives, and shows only the new call's", async () => {
    const session = await createSession({
      script: [
        textReply("This reply is lost in the crash", { textChunkSize: 4, stallAfterEvents: 5 }),
        textReply("Recovered."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "are you there?" });
    await device.until(() => shownText(device) === "This reply i", "live text of the doomed call");

    await evictDurableObject(stubOf(session));
    expect(await runDurableObjectAlarm(stubOf(session))).toBe(true);
    const restarted = await device.waitForEvent("turn_restarted");
    await device.waitForEvent("done", (e) => e.seq > restarted.seq);

    expect(shownText(device)).toBe("Recovered.");
    const calls = new Set(deltas(device).map((d) => d.call));
    expect(calls).toEqual(new Set([1, 2]));
  });

  it("sends a failed call's live text before the events that say the call failed, never after", async () => {
    const session = await createSession({
      // All in one task: deltas batched for devices, then the error, with no network read between.
      script: [
        textReply("Half a thought", {
          textChunkSize: 2,
          // A failure that will not pass with time, so the turn ends (an outage would wait and retry).
          error: { code: "invalid_request", message: "bad request", afterEvents: 5 },
        }),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    await device.waitForDone();
    await device.waitForEvent("session_status", (e) => e.data.status !== "running");
    const order = device.frames.map((f) => (f as { type?: string; seq?: number }).type ?? "");
    const done = order.indexOf("done");
    expect(order.slice(0, done)).toContain("delta");
    expect(order.slice(done)).not.toContain("delta");
    expect(shownText(device)).toBe("Half a");
    // Replay shows what was seen live.
    const later = await connect(session, { after: 0 });
    await later.until(() => later.events.length === device.events.length, "the replay");
    expect(shownText(later)).toBe("Half a");
  });

  it("stores a paused stream's text while the model is still silent, not when its next delta comes", async () => {
    const session = await createSession({
      // message_start, block start, then 4 deltas; a 1.5 s silence; the rest.
      script: [
        textReply("The answer, after some thought, is 42.", {
          textChunkSize: 4,
          pause: { afterEvents: 6, ms: 1500 },
        }),
      ],
    });
    const device = await connect(session);
    const seen = clockFrames(device);
    await device.request({ type: "send_message", text: "think" });
    await device.waitForDone();

    // Live deltas that arrive in one task go out as one frame: find the pause by offsets.
    const live = seen.filter((s) => s.frame.type === "delta") as Array<{ at: number; frame: DeltaFrame }>;
    const lastBefore = live.find((s) => s.frame.offset + s.frame.text.length === 16);
    const firstAfter = live.find((s) => s.frame.offset >= 16);
    const storedDuringPause = seen.find(
      (s) => s.frame.type === "text_delta" && lastBefore && s.at >= lastBefore.at,
    );
    expect(lastBefore && firstAfter && storedDuringPause).toBeTruthy();
    if (!lastBefore || !firstAfter || !storedDuringPause) return;
    expect(firstAfter.at - lastBefore.at).toBeGreaterThanOrEqual(1400);
    // Stored within the 100 ms bound (measured ~85 ms here); the slack is for a loaded machine,
    // and `npm run bench` measures the figure itself. Either way it is long before the pause ends.
    expect(storedDuringPause.at - lastBefore.at).toBeLessThan(400);
    expect(storedDuringPause.at).toBeLessThan(firstAfter.at);
    expect((storedDuringPause.frame as unknown as { data: { text: string } }).data.text).toBe(
      "The answer, afte",
    );
    expect(shownText(device)).toBe("The answer, after some thought, is 42.");
  });
});
