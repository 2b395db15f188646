// The model port: a request in the Messages API's own shape in, the API's raw stream events out.
// Anthropic's types are the internal format; every implementation passes test/unit/model/model-client.contract.ts.
import type Anthropic from "@anthropic-ai/sdk";
import * as z from "zod";
import { lazySchema } from "../protocol/lazy-schema";

export type MessageParam = Anthropic.MessageParam;
export type ContentBlockParam = Anthropic.ContentBlockParam;
export type ToolUseBlockParam = Anthropic.ToolUseBlockParam;
export type ToolResultBlockParam = Anthropic.ToolResultBlockParam;
export type TextBlockParam = Anthropic.TextBlockParam;
export type ToolSpec = Anthropic.Tool;
export type ModelStreamEvent = Anthropic.RawMessageStreamEvent;
export type StopReason = Anthropic.StopReason;
export type CacheControlEphemeral = Anthropic.CacheControlEphemeral;

/** What the agent loop asks of a model: exactly the Messages API body, minus `stream`. */
export interface ModelRequest {
  model: string;
  max_tokens: number;
  system: TextBlockParam[];
  messages: MessageParam[];
  tools: ToolSpec[];
  /**
   * The delegated agent the call is for (its name in agents/*.md); absent for the main agent.
   * Never sent: the Messages API has no such field, but an offline model may answer by it.
   */
  agent?: string;
}

export interface ModelClient {
  /** Model name shown to clients (e.g. `claude-sonnet-5-5`, `demo`). */
  readonly name: string;
  /** True for the built-in offline demo model. */
  readonly demo: boolean;
  /**
   * Streams one model response as raw Messages API events, ending after `message_stop`.
   * Throws `ModelError` once retries are exhausted; stops promptly when `signal` aborts.
   */
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>;
}

/** Why a model call failed; a zod enum because scripted replies carry one over HTTP. */
export const ModelErrorCode = lazySchema(() =>
  z.enum([
    "aborted",
    "overloaded",
    "rate_limited",
    "api_error",
    "invalid_request",
    "authentication",
    "connection",
    "script_exhausted",
  ]),
);
export type ModelErrorCode = z.infer<typeof ModelErrorCode>;

/** A model call that failed for good (after the client's own retries). */
export class ModelError extends Error {
  override readonly name = "ModelError";
  constructor(
    readonly code: ModelErrorCode,
    message: string,
    /** How long the API asked callers to wait (`retry-after`), when it said. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}
