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

/**
 * How long the next live frame waits per device the last one went to. Sending one frame to one
 * socket cost the object about 50 µs under `wrangler dev` (docs/performance-streaming.md#fan-out-to-100-devices),
 * so a frame to 100 devices keeps it busy about 5 ms: at a delta every 2.5 ms, one frame per delta
 * is more sending than the object can do, and the backlog grows for the whole stream. The clock
 * does not move while the object runs (a Worker's clock advances between I/O only), so the wait
 * counts from the moment the frame's task began and has to cover the sends themselves; twice their
 * cost leaves the object at least half its time to read the model, and devices stay current in
 * fuller frames instead of falling seconds behind. Under about ten devices the base interval rules.
 */
export const LIVE_FRAME_MS_PER_DEVICE = 0.1;

/** The longest a live frame waits, however many devices: one 60 Hz screen refresh. */
export const MAX_LIVE_FRAME_INTERVAL_MS = 16;

/** How long after a live frame that went to `devices` devices the next one may go. */
export function liveFrameInterval(devices: number): number {
  return Math.min(
    MAX_LIVE_FRAME_INTERVAL_MS,
    Math.max(LIVE_FRAME_INTERVAL_MS, devices * LIVE_FRAME_MS_PER_DEVICE),
  );
}

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
  /** When the next frame may go out (see liveFrameInterval). */
  #nextAt = Number.NEGATIVE_INFINITY;
  #cancelTimer: (() => void) | null = null;

  constructor(
    /** Sends one frame to every device and says how many devices that was. */
    private readonly send: (delta: LiveDelta) => number,
    private readonly now: () => number,
    private readonly schedule: Schedule,
  ) {}

  // A piece goes out at once unless the last frame went out less than its interval ago; then it
  // joins the held piece of its block, which the next later piece or a timer sends.
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
    const wait = this.#nextAt - this.now();
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
    const sentAt = this.now();
    const parts = this.#parts;
    const text = parts.length === 1 ? (parts[0] as string) : parts.join("");
    parts.length = 0;
    const index = this.#index;
    const offset = this.#offset;
    const toolCallId = this.#toolCallId;
    const devices = this.send(toolCallId ? { index, offset, text, toolCallId } : { index, offset, text });
    this.#nextAt = sentAt + liveFrameInterval(devices);
  }
}
