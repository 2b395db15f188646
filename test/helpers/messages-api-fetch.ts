// A fake `fetch` that serves the Messages API: scripted replies as `text/event-stream` SSE in
// awkward chunk sizes (split mid-line, mid-JSON, mid-character), with pings, and HTTP errors.
// Given to the real SDK, it exercises the SDK's own SSE parser and retry logic.
import type { ModelErrorCode, ModelStreamEvent } from "../../src/model/model-client";
import type { ScriptedReply } from "../../src/model/scripted-reply";
import { sseEvents } from "../../src/model/sse-events";

/** What the fake API answers to one request, in order. */
export type FakeApiResponse =
  /** A 200 stream playing the reply; its `error`, `stallAfterEvents` and `paceMs` apply mid-stream. */
  | { reply: ScriptedReply }
  /** A 200 stream of exactly these events, then the connection closes. */
  | { events: ModelStreamEvent[] }
  /** An HTTP error with the API's JSON error body. */
  | { status: number; error: { type: string; message: string }; headers?: Record<string, string> }
  /** The connection fails before any response. */
  | { networkError: string };

export interface RecordedRequest {
  url: string;
  method: string;
  headers: Headers;
  body: Record<string, unknown>;
}

export interface MessagesApi {
  fetch: typeof fetch;
  /** Every request the fake received, in order (retries included); a long run may empty it. */
  requests: RecordedRequest[];
}

/** Decides the answer to one request from what was sent (a model that reads its prompt). */
export type FakeApiResponder = (body: Record<string, unknown>, callIndex: number) => FakeApiResponse;

/** The API's error `type` for each scripted failure code. */
const ERROR_TYPES: Record<ModelErrorCode, string> = {
  aborted: "api_error",
  overloaded: "overloaded_error",
  rate_limited: "rate_limit_error",
  api_error: "api_error",
  invalid_request: "invalid_request_error",
  authentication: "authentication_error",
  connection: "api_error",
  script_exhausted: "invalid_request_error",
};

export interface MessagesApiOptions {
  /**
   * Cut streams into 1–7 byte chunks (the default), so the SDK must reassemble lines, JSON and
   * characters; or send each SSE message whole, for long runs that have proven that elsewhere.
   */
  chunks?: "awkward" | "whole";
}

/** A fake Messages API answering successive requests with `responses`, or as `responses` decides. */
export function createMessagesApiFetch(
  responses: FakeApiResponse[] | FakeApiResponder,
  options: MessagesApiOptions = {},
): MessagesApi {
  const requests: RecordedRequest[] = [];
  let calls = 0;
  const fakeFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const callIndex = calls++;
    const body = (await request.json()) as Record<string, unknown>;
    requests.push({ url: request.url, method: request.method, headers: request.headers, body });
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) throw abortError();
    const response = Array.isArray(responses) ? responses[callIndex] : responses(body, callIndex);
    if (!response) return jsonError(500, "api_error", `The fake API has no response for call ${callIndex}.`);
    if ("networkError" in response) throw new TypeError(response.networkError);
    if ("status" in response) {
      return jsonError(response.status, response.error.type, response.error.message, response.headers);
    }
    const model = String(body.model);
    const frames =
      "reply" in response ? replyFrames(response.reply, callIndex, model) : response.events.map(eventFrame);
    return new Response(sseBody(frames, signal, options.chunks === "whole" ? null : callIndex), {
      headers: { "content-type": "text/event-stream", "request-id": `req_fake_${callIndex}` },
    });
  };
  return { fetch: fakeFetch as typeof fetch, requests };
}

/** One SSE message, or an instruction to hang until the request is aborted. */
type Frame = string | { stall: true } | { pauseMs: number };

function eventFrame(event: ModelStreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

const PING = 'event: ping\ndata: {"type": "ping"}\n\n';

function replyFrames(reply: ScriptedReply, callIndex: number, model: string): Frame[] {
  const events = sseEvents(reply, { callIndex, model, inputTokens: 12 });
  const failAt = reply.error ? Math.min(reply.error.afterEvents ?? 0, events.length) : -1;
  const stallAt = reply.stallAfterEvents === undefined ? -1 : Math.min(reply.stallAfterEvents, events.length);
  const frames: Frame[] = [];
  for (let sent = 0; sent <= events.length; sent++) {
    if (reply.error && sent === failAt) {
      const body = {
        type: "error",
        error: { type: ERROR_TYPES[reply.error.code], message: reply.error.message },
      };
      frames.push(`event: error\ndata: ${JSON.stringify(body)}\n\n`);
      return frames;
    }
    if (sent === stallAt) frames.push({ stall: true });
    const event = events[sent];
    if (!event) break;
    if (reply.paceMs && sent > 0) frames.push({ pauseMs: reply.paceMs });
    frames.push(eventFrame(event));
    // The real API pings after message_start and now and then while it thinks.
    if (sent === 0 || sent % 5 === 3) frames.push(PING);
  }
  return frames;
}

/**
 * Serves frames as a byte stream cut into 1–7 byte chunks that ignore line, JSON and UTF-8
 * boundaries (or, without a seed, one chunk a frame). Aborting the request errors the body, as a
 * real fetch does.
 */
function sseBody(
  frames: Frame[],
  signal: AbortSignal | undefined,
  seed: number | null,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const random = seededRandom((seed ?? 0) + 1);
  let next = 0;
  let pending: Uint8Array = new Uint8Array(0);
  let aborted: () => void = () => {};
  const abortedPromise = new Promise<void>((resolve) => {
    aborted = resolve;
  });
  signal?.addEventListener("abort", () => aborted(), { once: true });

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (pending.length === 0) {
        const frame = frames[next++];
        if (frame === undefined) return controller.close();
        if (typeof frame === "string") {
          pending = encoder.encode(frame);
        } else if ("stall" in frame) {
          await abortedPromise;
        } else {
          // sleep-check: allow — the served stream's own pacing (a reply's paceMs), which tests read as deltas over time.
          await Promise.race([abortedPromise, new Promise((resolve) => setTimeout(resolve, frame.pauseMs))]);
        }
        if (signal?.aborted) return controller.error(abortError());
      }
      const size = seed === null ? pending.length : 1 + Math.floor(random() * 7);
      controller.enqueue(pending.slice(0, size));
      pending = pending.slice(size);
    },
  });
}

function jsonError(
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ type: "error", error: { type, message } }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function abortError(): Error {
  return new DOMException("The operation was aborted.", "AbortError");
}

/** A small deterministic generator (a 32-bit LCG), so a failing chunking is reproducible. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
