// Live batching: each streamed piece goes to devices at once as a live delta, a frame that is not
// an event (docs/architecture.md#live-deltas), unless deltas come faster than a frame a millisecond.

import type { Schedule } from "./schedule";

/**
 * Live frames go out at most once per this many milliseconds. A delta arriving later than that
 * after the last frame (any real model's pace, even 2.5 ms) goes out at once, in the task that
 * read it; deltas arriving faster (a burst, or an object that fell behind) wait at most this long
 * and go out together, so a device gets fewer, fuller frames instead of one per delta. Each
 * network read is its own task, so merging "what arrived in one task" would merge nothing.
 */
export const LIVE_FRAME_INTERVAL_MS = 1;

/** One piece of streamed output as devices get it live: `text` at `offset` of block `index`. */
export interface LiveDelta {
  index: number;
  offset: number;
  text: string;
  /** Set when the piece is tool input JSON. */
  toolCallId?: string;
}

/**
 * Holds the live pieces of one block not sent yet and sends them as one delta. One instance per
 * model call whose fields are reused from delta to delta: at a delta every few milliseconds, an
 * object per delta is garbage whose collection holds the frames behind it.
 */
export class LiveBatcher {
  #held = false;
  #index = 0;
  #offset = 0;
  /** Where the held text ends in its block: a piece starting there joins it. */
  #end = 0;
  readonly #parts: string[] = [];
  #toolCallId: string | undefined = undefined;
  #lastSentAt = Number.NEGATIVE_INFINITY;
  #cancelTimer: (() => void) | null = null;

  constructor(
    private readonly send: (delta: LiveDelta) => void,
    private readonly now: () => number,
    private readonly schedule: Schedule,
  ) {}

  // A piece goes out at once unless a frame went out less than LIVE_FRAME_INTERVAL_MS ago; then
  // it joins the held piece of its block, which the next later piece or a timer sends.
  add(index: number, offset: number, piece: string, toolCallId: string | undefined): void {
    if (!(this.#held && this.#index === index && this.#end === offset)) {
      this.flush();
      this.#held = true;
      this.#index = index;
      this.#offset = offset;
      this.#end = offset;
      this.#toolCallId = toolCallId;
    }
    this.#parts.push(piece);
    this.#end += piece.length;
    const wait = this.#lastSentAt + LIVE_FRAME_INTERVAL_MS - this.now();
    if (wait <= 0) {
      this.flush();
      return;
    }
    if (this.#cancelTimer) return;
    this.#cancelTimer = this.schedule(() => {
      this.#cancelTimer = null;
      this.flush();
    }, wait);
  }

  /**
   * Sends what is held. Also runs before anything is stored, so the device's copy never waits
   * behind the stored write (or the output gate that holds sends until the write is durable).
   */
  flush(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = null;
    if (!this.#held) return;
    this.#held = false;
    this.#lastSentAt = this.now();
    const parts = this.#parts;
    const text = parts.length === 1 ? (parts[0] as string) : parts.join("");
    parts.length = 0;
    const index = this.#index;
    const offset = this.#offset;
    const toolCallId = this.#toolCallId;
    this.send(toolCallId ? { index, offset, text, toolCallId } : { index, offset, text });
  }
}
