// Turns the Messages API's SSE body into its raw stream events, as the SDK's own stream reads it:
// pings and nameless messages skipped, an `error` event thrown as the SDK's APIError.
import { APIError } from "@anthropic-ai/sdk/error";
import type { ModelStreamEvent } from "./model-client";
import { SseDecoder, type SseMessageSink } from "./sse-decoder";

export class ModelEventReader {
  readonly #sse = new SseDecoder();
  /** Events decoded and not read yet; reused from chunk to chunk, so a delta costs no array. */
  readonly #ready: ModelStreamEvent[] = [];
  #at = 0;
  readonly #sink: SseMessageSink;

  /** `headers` are the response's, carried by an error event's APIError as the SDK does. */
  constructor(headers: Headers) {
    this.#sink = (event, data) => {
      if (event === null || event === "ping") return;
      if (event === "error") throw errorEvent(data, headers);
      if (data === "") return;
      // The API's own event types, trusted as the SDK trusts them: a schema check per delta
      // would cost more than everything else a delta allocates. A broken line still throws.
      this.#ready.push(JSON.parse(data) as ModelStreamEvent);
    };
  }

  /** Feeds one chunk of the body; read what it completed with `next()`. */
  decode(chunk: Uint8Array): void {
    this.#sse.decode(chunk, this.#sink);
  }

  /** The body ended. */
  end(): void {
    this.#sse.end(this.#sink);
  }

  /** The next decoded event, or undefined once every event fed so far has been read. */
  next(): ModelStreamEvent | undefined {
    if (this.#at < this.#ready.length) return this.#ready[this.#at++];
    this.#ready.length = 0;
    this.#at = 0;
    return undefined;
  }
}

function errorEvent(data: string, headers: Headers): APIError {
  let body: unknown = data;
  try {
    body = JSON.parse(data);
  } catch {
    // Not JSON: the APIError carries the text as it came.
  }
  const type = (body as { error?: { type?: unknown } } | null)?.error?.type;
  return new APIError(
    undefined,
    body as object,
    undefined,
    headers,
    typeof type === "string" ? (type as APIError["type"]) : undefined,
  );
}
