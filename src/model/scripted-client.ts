// The scripted model: plays scripted replies as the Messages API's raw stream, for tests,
// benchmarks and the offline demo. Failures (errors, stalls) are part of the script.
import { type ModelClient, ModelError, type ModelRequest, type ModelStreamEvent } from "./model-client";
import { ScriptedReply } from "./scripted-reply";
import { sseEvents } from "./sse-events";

/** A fixed script (reply N answers call N) or a function that decides each reply from the request. */
export type ScriptSource = ScriptedReply[] | ((request: ModelRequest, callIndex: number) => ScriptedReply);

export interface ScriptedModelClientOptions {
  /**
   * Supplies the index of each call. A session passes a persisted counter so that a script
   * continues where it left off after the Durable Object restarts.
   */
  nextCallIndex?: () => number;
  /** Model name shown to clients; `scripted` by default. */
  name?: string;
  /** Marks the built-in offline demo model. */
  demo?: boolean;
  /** Keeps a copy of every request in `requests`, for tests to inspect; off by default. */
  record?: boolean;
}

export class ScriptedModelClient implements ModelClient {
  readonly name: string;
  readonly demo: boolean;
  /**
   * With `record`, every request received, as the JSON it was when sent, in call order.
   * INVARIANT: filled only for sessions that ask (tests, benchmarks), since each entry is a whole
   * transcript and a long demo session must not keep them; losing them loses nothing a session needs.
   * The JSON is the text the token estimate measures anyway, so recording copies nothing more.
   */
  readonly #recorded: string[] = [];
  readonly #record: boolean;
  readonly #source: ScriptSource;
  readonly #nextCallIndex: () => number;
  // INVARIANT: only the fallback when no persisted counter is given (tests); losing it is harmless there.
  #calls = 0;

  /** With `record`, a copy of every request received, in call order; otherwise always empty. */
  get requests(): ModelRequest[] {
    return this.#recorded.map((json) => JSON.parse(json) as ModelRequest);
  }

  constructor(source: ScriptSource, options: ScriptedModelClientOptions = {}) {
    this.#source = source;
    this.#nextCallIndex = options.nextCallIndex ?? (() => this.#calls++);
    this.name = options.name ?? "scripted";
    this.demo = options.demo ?? false;
    this.#record = options.record ?? false;
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent> {
    const callIndex = this.#nextCallIndex();
    const body = JSON.stringify(request);
    if (this.#record) this.#recorded.push(body);
    const reply = this.#replyFor(request, callIndex);
    const events = sseEvents(reply, {
      callIndex,
      model: request.model,
      inputTokens: Math.ceil(body.length / 4),
    });
    const pace = reply.paceMs ?? 0;
    // A failure scripted past the end still happens, just before the stream would close.
    const failAt = reply.error ? Math.min(reply.error.afterEvents ?? 0, events.length) : -1;
    const stallAt =
      reply.stallAfterEvents === undefined ? -1 : Math.min(reply.stallAfterEvents, events.length);

    for (let sent = 0; sent <= events.length; sent++) {
      throwIfAborted(signal);
      if (reply.error && failAt === sent)
        throw new ModelError(reply.error.code, reply.error.message, reply.error.retryAfterMs ?? null);
      if (stallAt === sent) {
        await abortOf(signal);
        throwIfAborted(signal);
      }
      const event = events[sent];
      if (!event) return;
      if (pace > 0 && sent > 0) await sleep(pace, signal);
      if (reply.pause && reply.pause.afterEvents === sent) await sleep(reply.pause.ms, signal);
      throwIfAborted(signal);
      yield event;
    }
  }

  #replyFor(request: ModelRequest, callIndex: number): ScriptedReply {
    let candidate: unknown;
    if (Array.isArray(this.#source)) {
      candidate = this.#source[callIndex];
      if (candidate === undefined) {
        throw new ModelError(
          "script_exhausted",
          `The script has ${this.#source.length} replies and call ${callIndex + 1} asked for another.`,
        );
      }
    } else {
      candidate = this.#source(request, callIndex);
    }
    // Scripts are data from outside (HTTP, tests); a malformed reply fails this call, not the loop.
    const parsed = ScriptedReply.safeParse(candidate);
    if (!parsed.success) {
      throw new ModelError(
        "invalid_request",
        `Scripted reply ${callIndex} is invalid: ${parsed.error.message}`,
      );
    }
    return parsed.data;
  }
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new ModelError("aborted", "The model call was aborted.");
}

/** Resolves when `signal` aborts; never otherwise (a hung call is what a stall simulates). */
function abortOf(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

/** Waits `ms`, cut short by an abort (the caller then throws). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
