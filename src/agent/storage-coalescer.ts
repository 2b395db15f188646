// Storage coalescing: what was streamed is stored for replay as few events carrying the offsets
// they cover, written when the stream pauses, at a block's edge or at its end — not while it flows,
// since every write holds the live frames after it (the output gate, docs/live-path.md).

import type { Schedule } from "./schedule";

/**
 * While the stream flows and a reader sees stored events only (`storeWhileFlowing`), a stored
 * event takes at least this many deltas… 25 → at most 40 events per 1 000 deltas, leaving room
 * under the budget of 50 rows for block edges and pauses.
 */
export const STORE_EVERY_DELTAS = 25;
/** …and stored events are at least this far apart, so a pause cannot store more than 10 a second… */
export const MIN_STORE_INTERVAL_MS = 100;
/**
 * …and a flowing stream stores at most 4 a second. Each write holds every send after it until it
 * is durable (the output gate), so a fast stream's live deltas should meet as few writes as possible.
 */
export const FLOWING_STORE_INTERVAL_MS = 250;
/**
 * A stream silent this long is paused: what it sent is stored then (but never sooner than
 * MIN_STORE_INTERVAL_MS after the last stored event, so pauses cannot exceed 10 rows a second).
 * Either wait ends within 100 ms of the newest buffered delta; 60 leaves room for the timer's
 * lateness, the write and the trip to devices, and is still well above a real model's ~20 ms pace.
 */
export const PAUSE_FLUSH_MS = 60;
/**
 * A stored event holds at most about this many characters (whole deltas), whatever the pace: a long
 * flowing stream is stored as several events at once (replay frames stay small).
 */
export const MAX_EVENT_CHARS = 16_384;

export interface StorageCoalescerOptions {
  /** Stores `text` at `offset` of block `index` as one event. */
  store: (index: number, offset: number, text: string) => void;
  now: () => number;
  schedule: Schedule;
  /** Runs before anything is stored: the live frames held so far go out first. */
  beforeStore: () => void;
  /**
   * True while someone reads stored events only (an event stream without live deltas): the text of
   * a flowing stream is then also stored every FLOWING_STORE_INTERVAL_MS, so they see it progress.
   */
  storeWhileFlowing?: () => boolean;
}

/** The buffered pieces of one block, not stored yet. */
interface Pending {
  index: number;
  /** Where the first buffered piece starts in its block. */
  offset: number;
  parts: string[];
}

export class StorageCoalescer {
  #pending: Pending | null = null;
  #lastStoredAt = Number.NEGATIVE_INFINITY;
  #lastDeltaAt = 0;
  #cancelTimer: (() => void) | null = null;

  constructor(private readonly options: StorageCoalescerOptions) {}

  /** Buffers `piece`, which starts at `offset` of block `index`; another block's pieces are stored first. */
  add(index: number, offset: number, piece: string): void {
    if (this.#pending && this.#pending.index !== index) this.flush();
    const now = this.options.now();
    this.#lastDeltaAt = now;
    if (!this.#pending) {
      this.#pending = { index, offset, parts: [] };
      this.#armPauseTimer(PAUSE_FLUSH_MS);
    }
    this.#pending.parts.push(piece);
    // A flowing stream is stored when it pauses or its block ends; the live frames carry it now.
    const due =
      this.#pending.parts.length >= STORE_EVERY_DELTAS &&
      now - this.#lastStoredAt >= FLOWING_STORE_INTERVAL_MS &&
      this.options.storeWhileFlowing?.() === true;
    if (due) this.flush();
  }

  /** What is buffered, as one piece (for a device that joins mid-stream); null when nothing is. */
  unstored(): { index: number; offset: number; text: string } | null {
    const pending = this.#pending;
    if (!pending) return null;
    const text = pending.parts.join("");
    pending.parts = [text];
    return { index: pending.index, offset: pending.offset, text };
  }

  /** Stores what is buffered now (after the live frames held so far), in events of bounded size. */
  flush(): void {
    this.options.beforeStore();
    const pending = this.#pending;
    if (!pending) return;
    this.#pending = null;
    this.#cancelTimer?.();
    this.#cancelTimer = null;
    this.#lastStoredAt = this.options.now();
    let offset = pending.offset;
    for (const text of eventSized(pending.parts)) {
      this.options.store(pending.index, offset, text);
      offset += text.length;
    }
  }

  /** Stores what is buffered and stops the pause timer. */
  stop(): void {
    this.flush();
    this.#cancelTimer?.();
    this.#cancelTimer = null;
  }

  // One timer per buffered group: when it fires, a stream silent since PAUSE_FLUSH_MS is stored now,
  // and a flowing one is checked again when its last delta turns that old.
  #armPauseTimer(ms: number): void {
    this.#cancelTimer?.();
    this.#cancelTimer = this.options.schedule(() => {
      this.#cancelTimer = null;
      if (!this.#pending) return;
      const now = this.options.now();
      const wait = Math.max(
        this.#lastDeltaAt + PAUSE_FLUSH_MS - now,
        this.#lastStoredAt + MIN_STORE_INTERVAL_MS - now,
      );
      if (wait > 0) return this.#armPauseTimer(wait);
      try {
        this.flush();
      } catch (error) {
        // Storage failing here fails the loop's next write too, which ends the turn properly.
        console.error("StreamAssembler could not store a paused stream", error);
      }
    }, ms);
  }
}

/** Whole deltas joined into pieces of about MAX_EVENT_CHARS, one stored event each. */
function eventSized(parts: readonly string[]): string[] {
  const out: string[] = [];
  let group: string[] = [];
  let chars = 0;
  for (const part of parts) {
    group.push(part);
    chars += part.length;
    if (chars >= MAX_EVENT_CHARS) {
      out.push(group.join(""));
      group = [];
      chars = 0;
    }
  }
  if (group.length > 0) out.push(group.join(""));
  return out;
}
