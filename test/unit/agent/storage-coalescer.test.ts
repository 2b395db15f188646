import { describe, expect, it } from "vitest";
import {
  FLOWING_STORE_INTERVAL_MS,
  MAX_EVENT_CHARS,
  MIN_STORE_INTERVAL_MS,
  PAUSE_FLUSH_MS,
  STORE_EVERY_DELTAS,
  StorageCoalescer,
} from "../../../src/agent/storage-coalescer";
import { handClock } from "./hand-clock";

function coalescer({ storeWhileFlowing = false } = {}) {
  const hand = handClock();
  const log: string[] = [];
  const stored: Array<{ index: number; offset: number; text: string; at: number }> = [];
  const storage = new StorageCoalescer({
    store: (index, offset, text) => {
      log.push("store");
      stored.push({ index, offset, text, at: hand.clock.now });
    },
    now: hand.now,
    schedule: hand.schedule,
    beforeStore: () => log.push("live"),
    storeWhileFlowing: () => storeWhileFlowing,
  });
  return { ...hand, log, stored, storage };
}

describe("StorageCoalescer", () => {
  it("stores nothing while pieces flow, and all of them as one event when the stream pauses", () => {
    const { stored, storage, advance } = coalescer();
    for (let i = 0; i < 100; i++) {
      storage.add(0, i * 2, "ab");
      advance(2.5);
    }
    expect(stored).toEqual([]);
    advance(PAUSE_FLUSH_MS);
    expect(stored).toEqual([{ index: 0, offset: 0, text: "ab".repeat(100), at: 250 + PAUSE_FLUSH_MS - 2.5 }]);
  });

  it("sends the held live frames before every store", () => {
    const { log, storage } = coalescer();
    storage.add(0, 0, "a");
    storage.flush();
    expect(log).toEqual(["live", "store"]);
  });

  it("stores one block's pieces before buffering another block's", () => {
    const { stored, storage } = coalescer();
    storage.add(0, 0, "text");
    storage.add(1, 0, "{}");
    expect(stored.map(({ index, offset, text }) => ({ index, offset, text }))).toEqual([
      { index: 0, offset: 0, text: "text" },
    ]);
    storage.stop();
    expect(stored.at(-1)).toMatchObject({ index: 1, offset: 0, text: "{}" });
  });

  it("while someone reads stored events only, stores a flowing stream every few hundred milliseconds", () => {
    const { stored, storage, advance } = coalescer({ storeWhileFlowing: true });
    for (let i = 0; i < 400; i++) {
      storage.add(0, i, "x");
      advance(2.5);
    }
    expect(stored.length).toBeGreaterThanOrEqual(3);
    expect(stored.every((event) => event.text.length >= STORE_EVERY_DELTAS)).toBe(true);
    for (let i = 1; i < stored.length; i++) {
      expect((stored[i]?.at ?? 0) - (stored[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(
        FLOWING_STORE_INTERVAL_MS,
      );
    }
  });

  it("never stores a paused stream sooner than the minimum interval after the last stored event", () => {
    const { stored, storage, advance } = coalescer();
    storage.add(0, 0, "a");
    storage.flush();
    storage.add(0, 1, "b");
    advance(PAUSE_FLUSH_MS);
    expect(stored).toHaveLength(1);
    advance(MIN_STORE_INTERVAL_MS - PAUSE_FLUSH_MS);
    expect(stored.at(-1)).toMatchObject({ offset: 1, text: "b", at: MIN_STORE_INTERVAL_MS });
  });

  it("cuts what it stores into events of about MAX_EVENT_CHARS, whole pieces each, whose offsets chain", () => {
    const { stored, storage } = coalescer();
    const piece = "z".repeat(1000);
    for (let i = 0; i < 40; i++) storage.add(0, 5 + i * 1000, piece);
    storage.flush();
    expect(stored.length).toBe(3);
    expect(stored.map((event) => event.text.length)).toEqual([17_000, 17_000, 6_000]);
    expect(stored.map((event) => event.offset)).toEqual([5, 17_005, 34_005]);
    expect(Math.max(...stored.map((event) => event.text.length))).toBeLessThan(MAX_EVENT_CHARS + 1000);
  });

  it("gives what is buffered as one piece and still stores it exactly once", () => {
    const { stored, storage } = coalescer();
    expect(storage.unstored()).toBeNull();
    storage.add(2, 7, "ab");
    storage.add(2, 9, "cd");
    expect(storage.unstored()).toEqual({ index: 2, offset: 7, text: "abcd" });
    storage.stop();
    expect(stored.map((event) => event.text)).toEqual(["abcd"]);
    expect(storage.unstored()).toBeNull();
  });

  it("stops its pause timer when stopped", () => {
    const { stored, storage, advance, pendingTimers } = coalescer();
    storage.add(0, 0, "a");
    expect(pendingTimers()).toBe(1);
    storage.stop();
    expect(pendingTimers()).toBe(0);
    advance(1_000);
    expect(stored).toHaveLength(1);
  });
});
