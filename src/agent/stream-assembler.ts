// Folds the model's raw stream events into the assistant message. Each text or tool-input delta
// goes out at once as a live delta (docs/architecture.md#live-deltas); what is stored for replay is coalesced into few
// events that carry the offsets they cover, written when the stream pauses, at a block's edge or at
// its end — not while it flows, since every write holds the live frames after it (the output gate).
import type { ContentBlockParam, ModelStreamEvent, StopReason } from "../model/model-client";

export type StreamOutput =
  | { type: "text_delta"; index: number; offset: number; text: string }
  | { type: "tool_call_start"; toolCallId: string; name: string; index: number }
  | { type: "tool_call_delta"; toolCallId: string; offset: number; partialJson: string }
  | { type: "tool_call_end"; toolCallId: string; name: string; input: unknown };

/** One piece of streamed output as devices get it live: `text` at `offset` of block `index`. */
export interface LiveDelta {
  index: number;
  offset: number;
  text: string;
  /** Set when the piece is tool input JSON. */
  toolCallId?: string;
}

export interface AssembledMessage {
  content: ContentBlockParam[];
  stopReason: StopReason | null;
  usage: { input_tokens: number; output_tokens: number };
}

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
/**
 * Live frames go out at most once per this many milliseconds. A delta arriving later than that
 * after the last frame (any real model's pace, even 2.5 ms) goes out at once, in the task that
 * read it; deltas arriving faster (a burst, or an object that fell behind) wait at most this long
 * and go out together, so a device gets fewer, fuller frames instead of one per delta. Each
 * network read is its own task, so merging "what arrived in one task" would merge nothing.
 */
export const LIVE_FRAME_INTERVAL_MS = 1;

/** Runs `callback` after `ms`; the returned function cancels it. */
export type Schedule = (callback: () => void, ms: number) => () => void;

const defaultSchedule: Schedule = (callback, ms) => {
  const timer = setTimeout(callback, ms);
  return () => clearTimeout(timer);
};

export interface StreamAssemblerOptions {
  /** Receives every delta the moment it arrives. */
  live?: (delta: LiveDelta) => void;
  schedule?: Schedule;
  /**
   * True while someone reads stored events only (an event stream without live deltas): the text of
   * a flowing stream is then also stored every FLOWING_STORE_INTERVAL_MS, so they see it progress.
   */
  storeWhileFlowing?: () => boolean;
}

type Block =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; json: string }
  | { type: "other" };

/** Live pieces of one block not sent yet, sent as one delta. */
interface LiveBatch {
  index: number;
  offset: number;
  end: number;
  parts: string[];
  toolCallId: string | undefined;
}

interface Pending {
  index: number;
  /** Where the first buffered piece starts in its block. */
  offset: number;
  parts: string[];
  chars: number;
}

export class StreamAssembler {
  private readonly blocks = new Map<number, Block>();
  private pending: Pending | null = null;
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  private lastDeltaAt = 0;
  private cancelTimer: (() => void) | null = null;
  private liveBatch: LiveBatch | null = null;
  private cancelLiveTimer: (() => void) | null = null;
  private lastLiveAt = Number.NEGATIVE_INFINITY;
  private stopReason: StopReason | null = null;
  private usage = { input_tokens: 0, output_tokens: 0 };

  constructor(
    private readonly emit: (output: StreamOutput) => void,
    private readonly now: () => number,
    private readonly options: StreamAssemblerOptions = {},
  ) {}

  push(event: ModelStreamEvent): void {
    switch (event.type) {
      case "message_start": {
        const u = event.message.usage;
        this.usage.input_tokens =
          (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
        this.usage.output_tokens = u.output_tokens ?? 0;
        return;
      }
      case "content_block_start": {
        this.flush();
        const block = event.content_block;
        if (block.type === "text") {
          this.blocks.set(event.index, { type: "text", text: "" });
          this.delta(event.index, block.text);
        } else if (block.type === "tool_use") {
          this.blocks.set(event.index, { type: "tool_use", id: block.id, name: block.name, json: "" });
          this.emit({ type: "tool_call_start", toolCallId: block.id, name: block.name, index: event.index });
        } else {
          this.blocks.set(event.index, { type: "other" });
        }
        return;
      }
      case "content_block_delta": {
        if (event.delta.type === "text_delta") this.delta(event.index, event.delta.text);
        else if (event.delta.type === "input_json_delta") this.delta(event.index, event.delta.partial_json);
        return;
      }
      case "content_block_stop": {
        this.flush();
        const block = this.blocks.get(event.index);
        if (block?.type === "tool_use") {
          this.emit({
            type: "tool_call_end",
            toolCallId: block.id,
            name: block.name,
            input: parseInput(block.json),
          });
        }
        return;
      }
      case "message_delta":
        this.flush();
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        if (event.usage?.output_tokens != null) this.usage.output_tokens = event.usage.output_tokens;
        return;
      case "message_stop":
        this.flush();
        return;
    }
  }

  /** What was streamed but is not stored yet, as one delta (for a device that joins mid-stream). */
  unstored(): LiveDelta | null {
    const pending = this.pending;
    if (!pending) return null;
    const block = this.blocks.get(pending.index);
    const text = pending.parts.join("");
    pending.parts = [text];
    return block?.type === "tool_use"
      ? { index: pending.index, offset: pending.offset, text, toolCallId: block.id }
      : { index: pending.index, offset: pending.offset, text };
  }

  /**
   * Sends and stores whatever is still buffered, and stops the timers: a call that ends early
   * (failed or lost) leaves the same text in replay as devices saw live.
   */
  stop(): void {
    this.flush();
    this.cancelTimer?.();
    this.cancelTimer = null;
  }

  /** The finished message: empty text blocks dropped (the API rejects them), tool inputs parsed. */
  finish(): AssembledMessage {
    this.flush();
    return { content: this.content(false), stopReason: this.stopReason, usage: { ...this.usage } };
  }

  /** What was streamed so far as text only, for keeping a cancelled reply in the transcript. */
  partialText(): ContentBlockParam[] {
    this.flush();
    return this.content(true);
  }

  private content(textOnly: boolean): ContentBlockParam[] {
    const out: ContentBlockParam[] = [];
    for (const index of [...this.blocks.keys()].sort((a, b) => a - b)) {
      const block = this.blocks.get(index);
      if (block?.type === "text" && block.text.trim() !== "") out.push({ type: "text", text: block.text });
      if (block?.type === "tool_use" && !textOnly) {
        out.push({ type: "tool_use", id: block.id, name: block.name, input: parseInput(block.json) });
      }
    }
    return out;
  }

  private delta(index: number, piece: string): void {
    const block = this.blocks.get(index);
    if (piece === "" || !block || block.type === "other") return;
    let offset: number;
    if (block.type === "text") {
      offset = block.text.length;
      block.text += piece;
    } else {
      offset = block.json.length;
      block.json += piece;
    }
    this.sendLive(index, offset, piece, block.type === "tool_use" ? block.id : undefined);
    this.buffer(index, offset, piece);
  }

  // A delta goes out at once unless a frame went out less than LIVE_FRAME_INTERVAL_MS ago; then
  // it joins the held piece of its block, which the next later delta or a timer sends.
  private sendLive(index: number, offset: number, piece: string, toolCallId: string | undefined): void {
    if (!this.options.live) return;
    const batch = this.liveBatch;
    if (batch && batch.index === index && batch.end === offset) {
      batch.parts.push(piece);
      batch.end += piece.length;
    } else {
      this.flushLive();
      this.liveBatch = { index, offset, end: offset + piece.length, parts: [piece], toolCallId };
    }
    const wait = this.lastLiveAt + LIVE_FRAME_INTERVAL_MS - this.now();
    if (wait <= 0) {
      this.flushLive();
      return;
    }
    if (this.cancelLiveTimer) return;
    const schedule = this.options.schedule ?? defaultSchedule;
    this.cancelLiveTimer = schedule(() => {
      this.cancelLiveTimer = null;
      this.flushLive();
    }, wait);
  }

  // Also runs before anything is stored, so the device's copy never waits behind the stored write
  // (or the output gate that holds sends until the write is durable).
  private flushLive(): void {
    this.cancelLiveTimer?.();
    this.cancelLiveTimer = null;
    const batch = this.liveBatch;
    if (!batch) return;
    this.liveBatch = null;
    this.lastLiveAt = this.now();
    const text = batch.parts.length === 1 ? (batch.parts[0] as string) : batch.parts.join("");
    const { index, offset, toolCallId } = batch;
    this.options.live?.(toolCallId ? { index, offset, text, toolCallId } : { index, offset, text });
  }

  private buffer(index: number, offset: number, piece: string): void {
    if (this.pending && this.pending.index !== index) this.flush();
    const now = this.now();
    this.lastDeltaAt = now;
    if (!this.pending) {
      this.pending = { index, offset, parts: [], chars: 0 };
      this.armPauseTimer(PAUSE_FLUSH_MS);
    }
    this.pending.parts.push(piece);
    this.pending.chars += piece.length;
    // A flowing stream is stored when it pauses or its block ends; the live frames carry it now.
    const due =
      this.pending.parts.length >= STORE_EVERY_DELTAS &&
      now - this.lastFlushAt >= FLOWING_STORE_INTERVAL_MS &&
      this.options.storeWhileFlowing?.() === true;
    if (due) this.flush();
  }

  // One timer per buffered group: when it fires, a stream silent since PAUSE_FLUSH_MS is stored now,
  // and a flowing one is checked again when its last delta turns that old.
  private armPauseTimer(ms: number): void {
    const schedule = this.options.schedule ?? defaultSchedule;
    this.cancelTimer?.();
    this.cancelTimer = schedule(() => {
      this.cancelTimer = null;
      if (!this.pending) return;
      const now = this.now();
      const wait = Math.max(
        this.lastDeltaAt + PAUSE_FLUSH_MS - now,
        this.lastFlushAt + MIN_STORE_INTERVAL_MS - now,
      );
      if (wait > 0) return this.armPauseTimer(wait);
      try {
        this.flush();
      } catch (error) {
        // Storage failing here fails the loop's next write too, which ends the turn properly.
        console.error("StreamAssembler could not store a paused stream", error);
      }
    }, ms);
  }

  private flush(): void {
    this.flushLive();
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.lastFlushAt = this.now();
    const block = this.blocks.get(pending.index);
    const { index } = pending;
    let offset = pending.offset;
    for (const text of eventSized(pending.parts)) {
      if (block?.type === "text") this.emit({ type: "text_delta", index, offset, text });
      if (block?.type === "tool_use")
        this.emit({ type: "tool_call_delta", toolCallId: block.id, offset, partialJson: text });
      offset += text.length;
    }
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

// A truncated (max_tokens) or malformed tool input becomes {}; tool validation then reports it.
function parseInput(json: string): Record<string, unknown> {
  if (json.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
