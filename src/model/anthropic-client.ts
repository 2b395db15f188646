// The real model: Anthropic's Messages API through the official SDK, streamed as its raw events
// (the body read by src/model/model-event-reader.ts). The SDK retries 408/409/429/5xx/529 itself;
// what is left is mapped to one `ModelError`.
// The base client and the one resource used, not the full client: the full one builds (and the
// bundle carries) every API the SDK knows, beta tool runners included.
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk/error";
import { Messages } from "@anthropic-ai/sdk/resources/messages/messages";
import {
  type ModelClient,
  ModelError,
  type ModelErrorCode,
  type ModelRequest,
  type ModelStreamEvent,
} from "./model-client";
import { ModelEventReader } from "./model-event-reader";

export interface AnthropicModelClientOptions {
  apiKey: string;
  /** The model every request is expected to name (e.g. `claude-sonnet-5-5`); shown to clients. */
  model: string;
  baseURL?: string;
  /** Replaces the global `fetch` (tests serve the API from a fake). */
  fetch?: typeof fetch;
  /** SDK retries for overloaded, rate-limited and server errors; 4 by default. */
  maxRetries?: number;
}

export class AnthropicModelClient implements ModelClient {
  readonly name: string;
  readonly demo = false;
  readonly #messages: Messages;

  constructor(options: AnthropicModelClientOptions) {
    this.name = options.model;
    const client = new BaseAnthropic({
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      fetch: options.fetch,
      maxRetries: options.maxRetries ?? 4,
    });
    this.#messages = new Messages(client);
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent> {
    // The request goes out as the loop built it, cache_control markers included; an empty tool
    // list says nothing, so it is left out rather than risk a validation error.
    const { tools, agent: _agent, ...rest } = request;
    let stopped = false;
    let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
    let ended = false;
    // The SDK listens on the signal it is given until the body is settled, which a body read here
    // does not tell it: it gets a signal of this call's own, and the caller's is let go at the end.
    const call = new AbortController();
    const abort = () => call.abort(signal.reason);
    if (signal.aborted) abort();
    else signal.addEventListener("abort", abort, { once: true });
    try {
      // The SDK sends the request, retries it and maps a failed response to its errors; the body is
      // read here rather than through its stream, whose layers of async iterators and line objects
      // made most of what a delta allocates (bench/results/stream-allocation.md).
      const response = await this.#messages
        .create({ ...rest, ...(tools.length > 0 ? { tools } : {}), stream: true }, { signal: call.signal })
        .asResponse();
      if (!response.body) throw new Error("The model API answered without a body.");
      reader = response.body.getReader();
      const events = new ModelEventReader(response.headers);
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) {
          ended = true;
          events.end();
        } else {
          events.decode(chunk.value);
        }
        for (let event = events.next(); event; event = events.next()) {
          if (event.type === "message_stop") stopped = true;
          yield event;
        }
        if (chunk.done) break;
      }
    } catch (error) {
      throw toModelError(error, signal);
    } finally {
      signal.removeEventListener("abort", abort);
      // A consumer that stops early (or a failure) leaves the body unread: close the connection.
      if (reader && !ended) reader.cancel().catch(() => undefined);
    }
    // A dropped connection can end the body quietly.
    if (signal.aborted) throw abortedError();
    if (!stopped) throw new ModelError("connection", "The model stream ended before message_stop.");
  }
}

/** Maps whatever the SDK (or fetch) threw to a `ModelError`, by the API's error type first. */
export function toModelError(error: unknown, signal?: AbortSignal): ModelError {
  if (error instanceof ModelError) return error;
  if (signal?.aborted || error instanceof APIUserAbortError) return abortedError();
  if (error instanceof APIConnectionError) {
    return new ModelError("connection", `Could not reach the model API: ${error.message}`);
  }
  if (error instanceof APIError) {
    return new ModelError(
      codeOf(error.type, error.status),
      error.apiMessage ?? error.message,
      retryAfterMs(error.headers),
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError("api_error", `The model call failed: ${message}`);
}

function codeOf(type: string | null, status: number | undefined): ModelErrorCode {
  switch (type) {
    case "overloaded_error":
      return "overloaded";
    case "rate_limit_error":
      return "rate_limited";
    case "authentication_error":
    case "permission_error":
    case "billing_error":
      return "authentication";
    case "invalid_request_error":
    case "not_found_error":
      return "invalid_request";
  }
  if (status === 529) return "overloaded";
  if (status === 429) return "rate_limited";
  if (status === 401 || status === 403) return "authentication";
  if (status !== undefined && status >= 400 && status < 500) return "invalid_request";
  return "api_error";
}

/** `retry-after-ms`, else `retry-after` in seconds or as an HTTP date; null when absent or unreadable. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  const ms = Number(headers?.get("retry-after-ms"));
  if (headers?.get("retry-after-ms") && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get("retry-after");
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function abortedError(): ModelError {
  return new ModelError("aborted", "The model call was aborted.");
}
