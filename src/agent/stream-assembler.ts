// Folds the model's raw stream events into the assistant message (the assembly), handing each text
// or tool-input piece to live batching (src/agent/live-batcher.ts: out to devices at once) and to
// storage coalescing (src/agent/storage-coalescer.ts: stored for replay in few events).
import type { ContentBlockParam, ModelStreamEvent, StopReason } from "../model/model-client";
import { LiveBatcher, type LiveDelta } from "./live-batcher";
import { defaultSchedule, type Schedule } from "./schedule";
import { StorageCoalescer } from "./storage-coalescer";

export type { LiveDelta } from "./live-batcher";
export type { Schedule } from "./schedule";

export type StreamOutput =
  | { type: "text_delta"; index: number; offset: number; text: string }
  | { type: "tool_call_start"; toolCallId: string; name: string; index: number }
  | { type: "tool_call_delta"; toolCallId: string; offset: number; partialJson: string }
  | { type: "tool_call_end"; toolCallId: string; name: string; input: unknown };

export interface AssembledMessage {
  content: ContentBlockParam[];
  stopReason: StopReason | null;
  usage: { input_tokens: number; output_tokens: number };
}

export interface StreamAssemblerOptions {
  /**
   * Receives every delta the moment it arrives (see LIVE_FRAME_INTERVAL_MS) and says how many
   * devices it went to (see liveFrameInterval).
   */
  live?: (delta: LiveDelta) => number;
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

export class StreamAssembler {
  private readonly blocks = new Map<number, Block>();
  private readonly live: LiveBatcher | null;
  private readonly storage: StorageCoalescer;
  private stopReason: StopReason | null = null;
  private usage = { input_tokens: 0, output_tokens: 0 };

  constructor(
    private readonly emit: (output: StreamOutput) => void,
    now: () => number,
    options: StreamAssemblerOptions = {},
  ) {
    const schedule = options.schedule ?? defaultSchedule;
    this.live = options.live ? new LiveBatcher(options.live, now, schedule) : null;
    this.storage = new StorageCoalescer({
      store: (index, offset, text) => this.store(index, offset, text),
      now,
      schedule,
      beforeStore: () => this.live?.flush(),
      storeWhileFlowing: options.storeWhileFlowing,
    });
  }

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
        this.storage.flush();
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
        this.storage.flush();
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
        this.storage.flush();
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        if (event.usage?.output_tokens != null) this.usage.output_tokens = event.usage.output_tokens;
        return;
      case "message_stop":
        this.storage.flush();
        return;
    }
  }

  /** What was streamed but is not stored yet, as one delta (for a device that joins mid-stream). */
  unstored(): LiveDelta | null {
    const unstored = this.storage.unstored();
    if (!unstored) return null;
    const block = this.blocks.get(unstored.index);
    return block?.type === "tool_use" ? { ...unstored, toolCallId: block.id } : unstored;
  }

  /**
   * Sends and stores whatever is still buffered, and stops the timers: a call that ends early
   * (failed or lost) leaves the same text in replay as devices saw live.
   */
  stop(): void {
    this.storage.stop();
  }

  /** The finished message: empty text blocks dropped (the API rejects them), tool inputs parsed. */
  finish(): AssembledMessage {
    this.storage.flush();
    return { content: this.content(false), stopReason: this.stopReason, usage: { ...this.usage } };
  }

  /** What was streamed so far as text only, for keeping a cancelled reply in the transcript. */
  partialText(): ContentBlockParam[] {
    this.storage.flush();
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
    this.live?.add(index, offset, piece, block.type === "tool_use" ? block.id : undefined);
    this.storage.add(index, offset, piece);
  }

  private store(index: number, offset: number, text: string): void {
    const block = this.blocks.get(index);
    if (block?.type === "text") this.emit({ type: "text_delta", index, offset, text });
    if (block?.type === "tool_use")
      this.emit({ type: "tool_call_delta", toolCallId: block.id, offset, partialJson: text });
  }
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
