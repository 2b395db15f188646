import { describe, expect, it } from "vitest";
import {
  LIVE_FRAME_INTERVAL_MS,
  LiveBatcher,
  type LiveDelta,
  liveFrameInterval,
  MAX_LIVE_FRAME_INTERVAL_MS,
} from "../../../src/agent/live-batcher";
import { handClock } from "./hand-clock";

/** A batcher whose every frame reaches `devices` devices. */
function batcher(devices = 1) {
  const hand = handClock();
  const sent: Array<LiveDelta & { at: number }> = [];
  const live = new LiveBatcher(
    (delta) => {
      sent.push({ ...delta, at: hand.clock.now });
      return devices;
    },
    hand.now,
    hand.schedule,
  );
  return { ...hand, sent, live };
}

describe("LiveBatcher", () => {
  it("sends a piece at once when the last frame went out at least a frame interval ago", () => {
    const { sent, live, advance } = batcher();
    live.add(0, 0, "Hel", undefined);
    advance(LIVE_FRAME_INTERVAL_MS);
    live.add(0, 3, "lo", undefined);
    expect(sent).toEqual([
      { index: 0, offset: 0, text: "Hel", at: 0 },
      { index: 0, offset: 3, text: "lo", at: LIVE_FRAME_INTERVAL_MS },
    ]);
  });

  it("holds pieces that come faster and sends them as one frame when the interval is up", () => {
    const { sent, live, advance, pendingTimers } = batcher();
    live.add(0, 0, "a", undefined);
    advance(0.2);
    live.add(0, 1, "b", undefined);
    advance(0.2);
    live.add(0, 2, "c", undefined);
    expect(sent.map((delta) => delta.text)).toEqual(["a"]);
    expect(pendingTimers()).toBe(1);
    advance(1);
    expect(sent).toEqual([
      { index: 0, offset: 0, text: "a", at: 0 },
      { index: 0, offset: 1, text: "bc", at: LIVE_FRAME_INTERVAL_MS },
    ]);
    expect(pendingTimers()).toBe(0);
  });

  it("sends the held piece first when the next one belongs to another block or does not follow it", () => {
    const { sent, live, advance } = batcher();
    live.add(0, 0, "text", undefined);
    live.add(0, 4, " more", undefined);
    live.add(1, 0, '{"k"', "toolu_1");
    live.add(1, 10, "gap", "toolu_1");
    advance(5);
    expect(sent.map(({ at: _at, ...delta }) => delta)).toEqual([
      { index: 0, offset: 0, text: "text" },
      { index: 0, offset: 4, text: " more" },
      { index: 1, offset: 0, text: '{"k"', toolCallId: "toolu_1" },
      { index: 1, offset: 10, text: "gap", toolCallId: "toolu_1" },
    ]);
  });

  it("sends what it holds on flush, cancels its timer, and sends nothing when it holds nothing", () => {
    const { sent, live, advance, pendingTimers } = batcher();
    live.add(0, 0, "x", undefined);
    live.add(0, 1, "y", undefined);
    live.flush();
    expect(sent.map((delta) => delta.text)).toEqual(["x", "y"]);
    expect(pendingTimers()).toBe(0);
    live.flush();
    advance(10);
    expect(sent).toHaveLength(2);
  });

  it("waits longer after a frame that went to many devices, so a stream 2.5 ms a delta to 100 of them goes out in fuller frames", () => {
    const { sent, live, advance } = batcher(100);
    // Sending to 100 sockets keeps the object busy for about 5 ms; the next frame waits 10 ms.
    expect(liveFrameInterval(100)).toBe(10);
    for (let i = 0; i < 8; i++) {
      live.add(0, i, String(i), undefined);
      advance(2.5);
    }
    advance(10);
    expect(sent).toEqual([
      { index: 0, offset: 0, text: "0", at: 0 },
      { index: 0, offset: 1, text: "123", at: 10 },
      { index: 0, offset: 4, text: "4567", at: 20 },
    ]);
  });

  it("keeps the one-millisecond interval for a few devices and never waits past one screen refresh", () => {
    expect(liveFrameInterval(0)).toBe(LIVE_FRAME_INTERVAL_MS);
    expect(liveFrameInterval(10)).toBe(LIVE_FRAME_INTERVAL_MS);
    expect(liveFrameInterval(20)).toBe(2);
    expect(liveFrameInterval(10_000)).toBe(MAX_LIVE_FRAME_INTERVAL_MS);
    // A frame that reached nobody does not slow the next one.
    const { sent, live, advance } = batcher(0);
    live.add(0, 0, "a", undefined);
    advance(LIVE_FRAME_INTERVAL_MS);
    live.add(0, 1, "b", undefined);
    expect(sent.map((delta) => delta.text)).toEqual(["a", "b"]);
  });
});
