// Frames without a seq (server → client): the `hello` snapshot, `ack`s for commands and live model
// `delta`s. Replay's `{ type: "batch", events, more? }` frames are spliced as text by event-log.ts.
import * as z from "zod";
import { Role } from "../access/access";
import { lazySchema } from "../lazy-schema";
import { FRAME_MARK_FIELDS } from "../session/agents";
import { SessionSnapshot, ToolCallId } from "../session/session";
import { ErrorBody } from "./errors";

export const HelloFrame = lazySchema(() =>
  z.object({
    type: z.literal("hello"),
    deviceId: z.string(),
    /** What this connection may do: `owner`, `answer`, `view` or `agent` (absent from older servers: owner). */
    role: Role.optional(),
    snapshot: SessionSnapshot,
  }),
);
export type HelloFrame = z.infer<typeof HelloFrame>;

export const AckFrame = lazySchema(() =>
  z.object({
    type: z.literal("ack"),
    requestId: z.string().nullable(),
    ok: z.boolean(),
    result: z.unknown().optional(),
    error: ErrorBody.optional(),
  }),
);
export type AckFrame = z.infer<typeof AckFrame>;

/**
 * One streamed piece of model output, sent to every device the moment it arrives and never stored
 * (docs/architecture.md#live-deltas). `offset` is where `text` starts, in UTF-16 code units, within content block `index`
 * of model call `call` of the turn; stored `text_delta` / `tool_call_delta` events carry the same
 * coordinates, so a device merges live and stored copies exactly (`mergeText`). Tool input JSON
 * carries its `toolCallId`. A `turn_restarted` event voids every delta of its turn before it.
 * `frameId`, `agent` and `depth` say which agent is speaking (FrameMark), as on the stored events.
 */
export const DeltaFrame = lazySchema(() =>
  z.object({
    type: z.literal("delta"),
    turnId: z.string(),
    call: z.number().int().positive(),
    index: z.number().int().nonnegative(),
    offset: z.number().int().nonnegative(),
    text: z.string(),
    toolCallId: ToolCallId.optional(),
    ...FRAME_MARK_FIELDS,
  }),
);
export type DeltaFrame = z.infer<typeof DeltaFrame>;

/** The text the server answers to a "ping" text frame without waking the Durable Object. */
export const PING = "ping";
export const PONG = "pong";
