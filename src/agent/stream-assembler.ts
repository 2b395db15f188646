// Folds the model's raw stream events into the assistant message, and turns its deltas into
// client events. Deltas are coalesced (up to MAX_DELTAS per event, or whatever arrived within
// MAX_DELAY_MS) so a long reply costs a bounded number of stored rows.
import type { ContentBlockParam, ModelStreamEvent, StopReason } from "../model/model-client";

export type StreamOutput =
  | { type: "text_delta"; index: number; text: string }
  | { type: "tool_call_start"; toolCallId: string; name: string; index: number }
  | { type: "tool_call_delta"; toolCallId: string; partialJson: string }
  | { type: "tool_call_end"; toolCallId: string; name: string; input: unknown };

export interface AssembledMessage {
  content: ContentBlockParam[];
  stopReason: StopReason | null;
  usage: { input_tokens: number; output_tokens: number };
}

/**
 * Deltas merged into one event at most. 25 → 40 full events per 1 000 deltas, which leaves room
 * within the budget of 50 stored rows for the first delta (sent alone, at once) and block edges.
 */
export const MAX_DELTAS = 25;
/**
 * A buffered delta older than this is flushed with the next one to arrive. 100 ms keeps streamed
 * text smooth to a reader while a model that streams a delta every few milliseconds still fills
 * events of MAX_DELTAS (≤ 40 rows per 1 000 deltas); at 50 ms such a stream cost ~66 rows.
 */
export const MAX_DELAY_MS = 100;

type Block =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; json: string }
  | { type: "other" };

interface Pending {
  index: number;
  parts: string[];
}

export class StreamAssembler {
  private readonly blocks = new Map<number, Block>();
  private pending: Pending | null = null;
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  private stopReason: StopReason | null = null;
  private usage = { input_tokens: 0, output_tokens: 0 };

  constructor(
    private readonly emit: (output: StreamOutput) => void,
    private readonly now: () => number,
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
          this.blocks.set(event.index, { type: "text", text: block.text });
          if (block.text) this.emit({ type: "text_delta", index: event.index, text: block.text });
        } else if (block.type === "tool_use") {
          this.blocks.set(event.index, { type: "tool_use", id: block.id, name: block.name, json: "" });
          this.emit({ type: "tool_call_start", toolCallId: block.id, name: block.name, index: event.index });
        } else {
          this.blocks.set(event.index, { type: "other" });
        }
        return;
      }
      case "content_block_delta": {
        const block = this.blocks.get(event.index);
        if (event.delta.type === "text_delta" && block?.type === "text") {
          block.text += event.delta.text;
          this.buffer(event.index, event.delta.text);
        } else if (event.delta.type === "input_json_delta" && block?.type === "tool_use") {
          block.json += event.delta.partial_json;
          this.buffer(event.index, event.delta.partial_json);
        }
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

  private buffer(index: number, piece: string): void {
    if (this.pending && this.pending.index !== index) this.flush();
    this.pending ??= { index, parts: [] };
    this.pending.parts.push(piece);
    if (this.pending.parts.length >= MAX_DELTAS || this.now() - this.lastFlushAt >= MAX_DELAY_MS)
      this.flush();
  }

  private flush(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    this.lastFlushAt = this.now();
    const block = this.blocks.get(pending.index);
    const joined = pending.parts.join("");
    if (block?.type === "text") this.emit({ type: "text_delta", index: pending.index, text: joined });
    if (block?.type === "tool_use")
      this.emit({ type: "tool_call_delta", toolCallId: block.id, partialJson: joined });
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
