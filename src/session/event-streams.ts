// Server-Sent Events for one session: each stream gets the stored events after its cursor, then
// every live event, written synchronously in one step so nothing slips between replay and live.
import { MAX_EVENTS_PAGE } from "../protocol/limits";
import type { EventLog } from "./event-log";

const encoder = new TextEncoder();
/** A reader this far behind is dropped; it reconnects with Last-Event-ID and loses nothing. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export class EventStreams {
  // INVARIANT: open HTTP responses of this instance only; an evicted instance drops them, and
  // each client reconnects with Last-Event-ID, so no event is lost.
  // Each writer carries the socket tag of whoever opened it, so revoking a link ends its streams.
  private readonly writers = new Map<WritableStreamDefaultWriter<Uint8Array>, string>();
  // INVARIANT: runs only while a stream is open, so an idle instance is free to hibernate.
  private heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(
    /** A session's event log, or any log whose stored frames begin with their seq (an inbox's). */
    private readonly events: Pick<EventLog, "framesAfter">,
    /** How often an idle stream gets a `: heartbeat` comment, so proxies do not close it. */
    private readonly heartbeatMs: number,
  ) {}

  get size(): number {
    return this.writers.size;
  }

  /** Open streams opened with `tag` (one link's, or the owner's). */
  countTagged(tag: string): number {
    let count = 0;
    for (const opener of this.writers.values()) if (opener === tag) count += 1;
    return count;
  }

  /** Whether the heartbeat timer runs (it stops with the last stream). */
  get beating(): boolean {
    return this.heartbeat !== undefined;
  }

  /** A `text/event-stream` response: hello, the replay after `after`, then live events. */
  open(after: number, hello: { type: "hello" }, tag: string): Response {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(undefined, {
      highWaterMark: MAX_BUFFERED_BYTES,
      size: (chunk) => chunk.byteLength,
    });
    const writer = writable.getWriter();
    this.write(writer, `retry: 2000\nevent: hello\ndata: ${JSON.stringify(hello)}\n\n`);
    for (let cursor = after; ; ) {
      const frames = this.events.framesAfter(cursor, MAX_EVENTS_PAGE);
      for (const frame of frames) this.write(writer, message(frame));
      if (frames.length < MAX_EVENTS_PAGE) break;
      cursor = seqOf(frames[frames.length - 1]!);
    }
    this.writers.set(writer, tag);
    // A reader that goes away (the client disconnected) errors the writer: forget it at once.
    writer.closed.catch(() => this.drop(writer));
    this.heartbeat ??= setInterval(() => this.beat(), this.heartbeatMs);
    return new Response(readable, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
      },
    });
  }

  /** Sends one stored event frame to every stream. */
  broadcast(frame: string): void {
    // Only stored events (they begin with their seq) go out: an SSE id must be a resumable cursor,
    // so provisional live deltas stay on the WebSocket and SSE clients read the stored text.
    if (this.writers.size === 0 || !frame.startsWith('{"seq":')) return;
    const text = message(frame);
    for (const writer of this.writers.keys()) this.write(writer, text);
  }

  /** Ends every stream opened with `tag` (a revoked or expired link), or every stream. */
  close(tag?: string): void {
    for (const [writer, opener] of this.writers) {
      if (tag !== undefined && opener !== tag) continue;
      this.forget(writer);
      writer.close().catch(() => {
        // The reader is already gone; nothing to release.
      });
    }
  }

  private beat(): void {
    for (const writer of this.writers.keys()) this.write(writer, `: heartbeat ${Date.now()}\n\n`);
  }

  private write(writer: WritableStreamDefaultWriter<Uint8Array>, text: string): void {
    if ((writer.desiredSize ?? 0) < 0) {
      this.drop(writer);
      return;
    }
    writer.write(encoder.encode(text)).catch(() => this.drop(writer));
  }

  private drop(writer: WritableStreamDefaultWriter<Uint8Array>): void {
    if (!this.forget(writer)) return;
    writer.abort().catch(() => {
      // The reader is already gone; nothing to release.
    });
  }

  /** Removes a stream; the heartbeat stops with the last one. True when it was open. */
  private forget(writer: WritableStreamDefaultWriter<Uint8Array>): boolean {
    if (!this.writers.delete(writer)) return false;
    if (this.writers.size === 0 && this.heartbeat !== undefined) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
    return true;
  }
}

// Stored frames are single-line JSON that begin with `{"seq":N,`, so the id is read without parsing.
function seqOf(frame: string): number {
  return Number(/^\{"seq":(\d+),/.exec(frame)?.[1] ?? 0);
}

function message(frame: string): string {
  return `id: ${seqOf(frame)}\ndata: ${frame}\n\n`;
}
