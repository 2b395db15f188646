import { describe, expect, it } from "vitest";
import { EventStreams } from "../../../src/objects/event-streams";
import { SseReader } from "../../helpers/sse-reader";

// A stored log of padded events, as the session's events table holds them (frames begin with their seq).
class FakeLog {
  readonly frames: string[] = [];
  /** The highest seq storage has handed to the streams so far. */
  served = 0;

  append(count: number, padding: number): string[] {
    const added: string[] = [];
    for (let i = 0; i < count; i++) {
      const seq = this.frames.length + 1;
      const frame = JSON.stringify({ seq, at: seq, type: "text_delta", data: { text: "x".repeat(padding) } });
      this.frames.push(frame);
      added.push(frame);
    }
    return added;
  }

  framesAfter(after: number, limit = 1_000): string[] {
    const page = this.frames.slice(after, after + limit);
    this.served = Math.max(this.served, after + page.length);
    return page;
  }
}

const BOUND = 4 * 1024;
const HELLO = { type: "hello" as const };

describe("an event stream with a backlog larger than its buffer", () => {
  it("delivers every stored event in order, reading storage only as fast as the client reads", async () => {
    const log = new FakeLog();
    log.append(300, 1_000); // ~300 KiB behind a 4 KiB buffer
    const streams = new EventStreams(log, 60_000, BOUND);
    const reader = new SseReader(streams.open(0, HELLO, "owner"));

    // Nothing read yet: only what fits the buffer (plus one page read from storage) is held.
    expect(log.served).toBeLessThan(100);

    await reader.until(() => reader.events.at(-1)?.seq === 300, "the whole backlog");
    expect(reader.events.map((event) => event.seq)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    await reader.close();
  });

  it("takes events stored while it catches up from storage, then goes live without a gap or a repeat", async () => {
    const log = new FakeLog();
    log.append(200, 1_000);
    const streams = new EventStreams(log, 60_000, BOUND);
    const reader = new SseReader(streams.open(0, HELLO, "owner"));
    await reader.until(() => (reader.events.at(-1)?.seq ?? 0) >= 20, "the first events");

    // The session stores and broadcasts new events while this stream is still far behind.
    for (const frame of log.append(30, 500)) streams.broadcast(frame);
    await reader.until(() => reader.events.at(-1)?.seq === 230, "the backlog and the new events");
    for (const frame of log.append(5, 10)) streams.broadcast(frame);
    await reader.until(() => reader.events.at(-1)?.seq === 235, "the live events");

    expect(reader.events.map((event) => event.seq)).toEqual(Array.from({ length: 235 }, (_, i) => i + 1));
    expect(streams.size).toBe(1);
    await reader.close();
  });

  it("pauses a live stream whose client stops reading, and resumes it from storage when it reads again", async () => {
    const log = new FakeLog();
    const streams = new EventStreams(log, 60_000, BOUND);
    const reader = new SseReader(streams.open(0, HELLO, "owner"));
    await reader.until(() => reader.hello !== null, "hello");

    // The client reads nothing while 100 KiB of live events go out.
    for (const frame of log.append(100, 1_000)) streams.broadcast(frame);
    await reader.until(() => reader.events.at(-1)?.seq === 100, "every live event");

    expect(reader.events.map((event) => event.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    await reader.close();
  });
});
