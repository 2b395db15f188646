// Server-Sent Events for one object (a session or an inbox): each stream gets the stored events after
// its cursor, then every live event. A stream whose buffer is full pauses and catches up from storage
// once its reader drains it, so a late joiner with a long backlog gets every event, in order, in bounded memory.

const encoder = new TextEncoder();
/** Bytes one stream may hold unread before it pauses and later catches up from storage. */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** Stored events read per step of a catch-up (small, so a step never holds much more than the buffer). */
const CATCH_UP_PAGE = 64;

/** A log whose stored frames begin with their seq: a session's event log, or an inbox's. */
export interface FrameLog {
  /** Up to `limit` stored frames after seq `after`, oldest first. */
  framesAfter(after: number, limit: number): string[];
}

interface Reader {
  /** Socket tag of whoever opened the stream, so revoking a link ends its streams. */
  tag: string;
  /** Seq of the last event written to this stream. */
  sent: number;
  /** True while the stream reads from storage; live broadcasts then skip it (storage has them). */
  catchingUp: boolean;
  /** The newest write; once it is through, so is every write before it, and the buffer is empty. */
  lastWrite: Promise<void>;
  /** Counts bytes read back from storage for this stream against its credential's replay budget. */
  charge: (bytes: number) => void;
}

export class EventStreams {
  // INVARIANT: open HTTP responses of this instance only; an evicted instance drops them, and
  // each client reconnects with Last-Event-ID, so no event is lost.
  private readonly writers = new Map<WritableStreamDefaultWriter<Uint8Array>, Reader>();
  // INVARIANT: runs only while a stream is open, so an idle instance is free to hibernate.
  private heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly events: FrameLog,
    /** How often an idle stream gets a `: heartbeat` comment, so proxies do not close it. */
    private readonly heartbeatMs: number,
    /** Unread bytes one stream may buffer; over it, the stream waits for its reader. */
    private readonly maxBufferedBytes = MAX_BUFFERED_BYTES,
  ) {}

  get size(): number {
    return this.writers.size;
  }

  /** Open streams opened with `tag` (one link's, or the owner's). */
  countTagged(tag: string): number {
    let count = 0;
    for (const reader of this.writers.values()) if (reader.tag === tag) count += 1;
    return count;
  }

  /** Whether the heartbeat timer runs (it stops with the last stream). */
  get beating(): boolean {
    return this.heartbeat !== undefined;
  }

  /**
   * A `text/event-stream` response: hello, the replay after `after`, then live events. `charge`
   * is told the bytes of each event read back from storage for it (the replay budget).
   */
  open(
    after: number,
    hello: { type: "hello" },
    tag: string,
    charge: (bytes: number) => void = () => undefined,
  ): Response {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(undefined, {
      highWaterMark: this.maxBufferedBytes,
      size: (chunk) => chunk.byteLength,
    });
    const writer = writable.getWriter();
    const reader: Reader = { tag, sent: after, catchingUp: true, lastWrite: Promise.resolve(), charge };
    this.writers.set(writer, reader);
    // A reader that goes away (the client disconnected) errors the writer: forget it at once.
    writer.closed.catch(() => this.drop(writer));
    this.write(writer, reader, `retry: 2000\nevent: hello\ndata: ${JSON.stringify(hello)}\n\n`);
    // The first step runs now, in the same synchronous step as `hello`, so a short replay and the
    // switch to live events happen before any other event can be stored.
    this.catchUp(writer, reader);
    this.heartbeat ??= setInterval(() => this.beat(), this.heartbeatMs);
    return new Response(readable, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
      },
    });
  }

  /** Sends one stored event frame to every stream that is live (not catching up). */
  broadcast(frame: string): void {
    // Only stored events (they begin with their seq) go out: an SSE id must be a resumable cursor,
    // so provisional live deltas stay on the WebSocket and SSE clients read the stored text.
    if (this.writers.size === 0 || !frame.startsWith('{"seq":')) return;
    const seq = seqOf(frame);
    for (const [writer, reader] of this.writers) {
      // A stream catching up reads this event from storage; one that already has it skips it.
      if (reader.catchingUp || seq <= reader.sent) continue;
      if (this.full(writer)) {
        this.pause(writer, reader);
        continue;
      }
      this.write(writer, reader, message(frame, seq));
      reader.sent = seq;
    }
  }

  /** Ends every stream opened with `tag` (a revoked or expired link), or every stream. */
  close(tag?: string): void {
    for (const [writer, reader] of this.writers) {
      if (tag !== undefined && reader.tag !== tag) continue;
      this.forget(writer);
      writer.close().catch(() => {
        // The reader is already gone; nothing to release.
      });
    }
  }

  /**
   * Writes stored events after the stream's cursor until its buffer is full (then waits for the
   * reader to drain it and goes on) or storage has no more (then the stream goes live). Each step
   * writes at least one event, so a stream always moves forward.
   */
  private catchUp(writer: WritableStreamDefaultWriter<Uint8Array>, reader: Reader): void {
    reader.catchingUp = true;
    let wrote = false;
    while (this.writers.has(writer)) {
      if (wrote && this.full(writer)) {
        this.pause(writer, reader);
        return;
      }
      const frames = this.events.framesAfter(reader.sent, CATCH_UP_PAGE);
      let written = 0;
      for (const frame of frames) {
        if (wrote && this.full(writer)) break;
        const seq = seqOf(frame);
        this.write(writer, reader, message(frame, seq));
        reader.charge(frame.length);
        reader.sent = seq;
        written += 1;
        wrote = true;
      }
      // A short page written whole means storage has nothing newer: the stream goes live.
      if (written === frames.length && frames.length < CATCH_UP_PAGE) break;
    }
    reader.catchingUp = false;
  }

  /** Stops live writes to a full stream and resumes it from storage once its reader drains it. */
  private pause(writer: WritableStreamDefaultWriter<Uint8Array>, reader: Reader): void {
    reader.catchingUp = true;
    // Not `writer.ready`: when the runtime pumps the body it can resolve while the buffer is
    // still full. The last write settles only once everything before it went to the reader.
    reader.lastWrite.then(
      () => this.catchUp(writer, reader),
      () => this.drop(writer),
    );
  }

  private beat(): void {
    for (const [writer, reader] of this.writers) {
      // A paused stream is not idle: its reader has unread events, so no heartbeat is needed.
      if (!reader.catchingUp) this.write(writer, reader, `: heartbeat ${Date.now()}\n\n`);
    }
  }

  private full(writer: WritableStreamDefaultWriter<Uint8Array>): boolean {
    return (writer.desiredSize ?? 0) <= 0;
  }

  private write(writer: WritableStreamDefaultWriter<Uint8Array>, reader: Reader, text: string): void {
    reader.lastWrite = writer.write(encoder.encode(text));
    reader.lastWrite.catch(() => this.drop(writer));
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

function message(frame: string, seq: number): string {
  return `id: ${seq}\ndata: ${frame}\n\n`;
}
