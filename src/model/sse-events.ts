// Turns a scripted reply into the exact raw event sequence the Messages API streams over SSE,
// so the scripted model and the fake API in tests speak the same stream as the real one.
import type { ModelStreamEvent } from "./model-client";
import { DEFAULT_TEXT_CHUNK_SIZE, type ScriptedReply, stopReasonOf } from "./scripted-reply";

/** Identity of the call being played; it makes message and tool ids deterministic. */
export interface ReplyContext {
  callIndex: number;
  /** Echoed in `message_start`, as the API echoes the requested model. */
  model: string;
  /** Reported when the reply gives no usage (a rough size of the request). */
  inputTokens?: number;
}

/** The default id of a scripted tool call: unique per call index and block position. */
export function scriptedToolId(callIndex: number, blockIndex: number): string {
  return `toolu_${callIndex}_${blockIndex}`;
}

/**
 * The raw stream events for `reply`: `message_start`, then per block `content_block_start`,
 * its deltas and `content_block_stop`, then `message_delta` and `message_stop`.
 */
export function sseEvents(reply: ScriptedReply, context: ReplyContext): ModelStreamEvent[] {
  const chunkSize = reply.textChunkSize ?? DEFAULT_TEXT_CHUNK_SIZE;
  const inputTokens = reply.usage?.input_tokens ?? context.inputTokens ?? 0;
  const outputTokens = reply.usage?.output_tokens ?? estimateOutputTokens(reply);
  const events: ModelStreamEvent[] = [
    {
      type: "message_start",
      message: {
        id: `msg_scripted_${context.callIndex}`,
        type: "message",
        role: "assistant",
        model: context.model,
        content: [],
        container: null,
        diagnostics: null,
        stop_details: null,
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: inputTokens,
          // The API reports a token or so here and the real count in message_delta.
          output_tokens: Math.min(1, outputTokens),
          cache_creation: null,
          cache_creation_input_tokens: null,
          cache_read_input_tokens: null,
          inference_geo: null,
          output_tokens_details: null,
          server_tool_use: null,
          service_tier: "standard",
          speed: null,
        },
      },
    },
  ];

  reply.content.forEach((block, index) => {
    if (block.type === "text") {
      events.push({
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "", citations: null },
      });
      for (const text of chunks(block.text, chunkSize)) {
        events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text } });
      }
    } else {
      const id = block.id ?? scriptedToolId(context.callIndex, index);
      events.push({
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id, name: block.name, input: {}, caller: { type: "direct" } },
      });
      for (const partial_json of chunks(JSON.stringify(block.input), chunkSize)) {
        events.push({
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json },
        });
      }
    }
    events.push({ type: "content_block_stop", index });
  });

  events.push(
    {
      type: "message_delta",
      delta: { stop_reason: stopReasonOf(reply), stop_sequence: null, stop_details: null, container: null },
      usage: {
        input_tokens: inputTokens,
        output_tokens: outputTokens,
        cache_creation_input_tokens: null,
        cache_read_input_tokens: null,
        output_tokens_details: null,
        server_tool_use: null,
      },
    },
    { type: "message_stop" },
  );
  return events;
}

/** Splits by code point so a delta never ends in half a surrogate pair. */
function chunks(text: string, size: number): string[] {
  const points = Array.from(text);
  const pieces: string[] = [];
  for (let start = 0; start < points.length; start += size) {
    pieces.push(points.slice(start, start + size).join(""));
  }
  return pieces;
}

/** About four characters per token, like the API's rule of thumb; never zero for a non-empty reply. */
function estimateOutputTokens(reply: ScriptedReply): number {
  const chars = reply.content.reduce(
    (sum, block) => sum + (block.type === "text" ? block.text.length : JSON.stringify(block.input).length),
    0,
  );
  return Math.ceil(chars / 4);
}
