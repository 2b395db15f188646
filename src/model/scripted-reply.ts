// One scripted model reply: what the scripted model says, how it streams it, and how it fails.
// Scripts also arrive over HTTP (`POST /api/sessions { script }`), so the schema is strict and bounded.
import * as z from "zod";
import { lazySchema } from "../protocol/lazy-schema";
import { ToolCallId } from "../protocol/session/session";
import { ModelErrorCode, type StopReason } from "./model-client";

/** Longest text block a scripted reply may carry, in characters. */
export const MAX_SCRIPTED_TEXT_CHARS = 100_000;
/** Most content blocks in one scripted reply. */
export const MAX_SCRIPTED_BLOCKS = 64;
/** Default number of characters per streamed `text_delta` (and per `input_json_delta` piece). */
export const DEFAULT_TEXT_CHUNK_SIZE = 8;

const Count = lazySchema(() => z.number().int().nonnegative().max(1_000_000));

const ScriptedTextBlock = lazySchema(() =>
  z.strictObject({
    type: z.literal("text"),
    text: z.string().max(MAX_SCRIPTED_TEXT_CHARS),
  }),
);

const ScriptedToolUseBlock = lazySchema(() =>
  z.strictObject({
    type: z.literal("tool_use"),
    /** Defaults to `toolu_<callIndex>_<blockIndex>`. */
    id: ToolCallId.optional(),
    // The Messages API's own rule for tool names.
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "invalid tool name"),
    input: z.record(z.string(), z.unknown()),
  }),
);

/** Stop reasons a scripted reply may end with; `tool_use` or `end_turn` are inferred when absent. */
export const ScriptedStopReason = lazySchema(() =>
  z.enum(["end_turn", "tool_use", "max_tokens", "refusal", "stop_sequence", "pause_turn"]),
) satisfies z.ZodType<StopReason>;

/** One reply of the scripted model, validated wherever a script comes from. */
export const ScriptedReply = lazySchema(() =>
  z.strictObject({
    content: z
      .array(z.discriminatedUnion("type", [ScriptedTextBlock, ScriptedToolUseBlock]))
      .max(MAX_SCRIPTED_BLOCKS),
    stopReason: ScriptedStopReason.optional(),
    usage: z.strictObject({ input_tokens: Count, output_tokens: Count }).optional(),
    /** Characters per `text_delta`; tool input JSON is streamed in pieces of the same size. */
    textChunkSize: z.number().int().min(1).max(MAX_SCRIPTED_TEXT_CHARS).optional(),
    /** Delay before each event after the first, in milliseconds (benchmarks); 0 streams at once. */
    paceMs: z.number().int().nonnegative().max(60_000).optional(),
    /** After this many events, go quiet for `ms` and then stream on (a model pausing mid-sentence). */
    pause: z.strictObject({ afterEvents: Count, ms: z.number().int().nonnegative().max(60_000) }).optional(),
    /** After this many events, hang until the call is aborted (a hung call or a crash mid-stream). */
    stallAfterEvents: Count.optional(),
    /** Fail with this error, at once or after `afterEvents` events. */
    error: z
      .strictObject({
        code: ModelErrorCode,
        message: z.string().max(1_000),
        afterEvents: Count.optional(),
        /** The wait the API would have asked for (`retry-after`), in milliseconds. */
        retryAfterMs: Count.optional(),
      })
      .optional(),
  }),
);
export type ScriptedReply = z.infer<typeof ScriptedReply>;

/** The stop reason a reply ends with: its own, else `tool_use` when it calls a tool, else `end_turn`. */
export function stopReasonOf(reply: ScriptedReply): StopReason {
  if (reply.stopReason) return reply.stopReason;
  return reply.content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn";
}
