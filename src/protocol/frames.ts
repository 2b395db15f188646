// Frames without a seq (server → client): the `hello` snapshot, `ack`s for commands, and `batch`
// frames that carry many stored events at once during replay.
import { z } from "zod";
import { ErrorBody } from "./errors";
import { SessionSnapshot } from "./session";

export const HelloFrame = z.object({
  type: z.literal("hello"),
  deviceId: z.string(),
  snapshot: SessionSnapshot,
});
export type HelloFrame = z.infer<typeof HelloFrame>;

export const AckFrame = z.object({
  type: z.literal("ack"),
  requestId: z.string().nullable(),
  ok: z.boolean(),
  result: z.unknown().optional(),
  error: ErrorBody.optional(),
});
export type AckFrame = z.infer<typeof AckFrame>;

/**
 * Replay of stored events, in order; `events` are the same objects live frames carry. `more` marks
 * the last frame of a replay that stopped at its size budget: send `resume` from the last seq.
 */
export const BatchFrame = z.object({
  type: z.literal("batch"),
  events: z.array(z.unknown()),
  more: z.boolean().optional(),
});
export type BatchFrame = z.infer<typeof BatchFrame>;

/** The text the server answers to a "ping" text frame without waking the Durable Object. */
export const PING = "ping";
export const PONG = "pong";
