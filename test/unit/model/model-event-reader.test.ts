import { getEventListeners } from "node:events";
import { APIError } from "@anthropic-ai/sdk/error";
import { Stream } from "@anthropic-ai/sdk/streaming";
import { describe, expect, it } from "vitest";
import { AnthropicModelClient } from "../../../src/model/anthropic-client";
import type { ModelStreamEvent } from "../../../src/model/model-client";
import { ModelEventReader } from "../../../src/model/model-event-reader";
import { collect, request } from "./assemble-events";
import { expectModelError } from "./model-client.contract";

// A reply as the Messages API streams it, with extended thinking (and its signature), a cited
// text block, a tool call whose input arrives in pieces, pings, and the final usage.
const RECORDED = [
  `event: message_start
data: {"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":472,"cache_creation_input_tokens":0,"cache_read_input_tokens":2048,"output_tokens":3}}}`,
  `event: ping
data: {"type": "ping"}`,
  `event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`,
  `event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The user wants the weather; "}}`,
  `event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM1gbcDa9GJwZA2b3h"}}`,
  `event: content_block_stop
data: {"type":"content_block_stop","index":0}`,
  `event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":"","citations":null}}`,
  `event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"citations_delta","citation":{"type":"char_location","cited_text":"Paris is sunny.","document_index":0,"document_title":"Forecast","start_char_index":0,"end_char_index":15}}}`,
  `event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"It is sunny — ☀️ "}}`,
  `event: content_block_stop
data: {"type":"content_block_stop","index":1}`,
  `event: content_block_start
data: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_01","name":"get_weather","input":{}}}`,
  `event: content_block_delta
data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":""}}`,
  `event: content_block_delta
data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\\"city\\": \\"Par"}}`,
  `event: ping
data: {"type": "ping"}`,
  `event: content_block_delta
data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"is\\"}"}}`,
  `event: content_block_stop
data: {"type":"content_block_stop","index":2}`,
  `event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":89}}`,
  `event: message_stop
data: {"type":"message_stop"}`,
]
  .map((message) => `${message}\n\n`)
  .join("");

const ERROR_MID_STREAM = `${RECORDED.slice(0, RECORDED.indexOf("event: content_block_start"))}event: error
data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n`;

/** The body cut into pieces of 1–`max` bytes, from a fixed seed. */
function chunked(text: string, max: number, seed = 7): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const out: Uint8Array[] = [];
  let state = seed;
  for (let at = 0; at < bytes.length; ) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const size = 1 + (state % max);
    out.push(bytes.slice(at, at + size));
    at += size;
  }
  return out;
}

function body(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
  });
}

function read(chunks: Uint8Array[], headers = new Headers()): ModelStreamEvent[] {
  const reader = new ModelEventReader(headers);
  const events: ModelStreamEvent[] = [];
  for (const chunk of chunks) {
    reader.decode(chunk);
    for (let event = reader.next(); event; event = reader.next()) events.push(event);
  }
  reader.end();
  for (let event = reader.next(); event; event = reader.next()) events.push(event);
  return events;
}

/** What the SDK's own stream makes of the same bytes. */
async function sdkEvents(chunks: Uint8Array[]): Promise<ModelStreamEvent[]> {
  const response = new Response(body(chunks), { headers: { "content-type": "text/event-stream" } });
  return collect(Stream.fromSSEResponse<ModelStreamEvent>(response, new AbortController()));
}

describe("ModelEventReader", () => {
  it("reads a recorded stream (thinking, citations, tool input in pieces, pings) exactly as the SDK's own stream does", async () => {
    const expected = await sdkEvents(chunked(RECORDED, RECORDED.length));
    expect(expected.map((event) => event.type)).toEqual([
      "message_start",
      ...["content_block_start", "content_block_delta", "content_block_delta", "content_block_stop"],
      ...["content_block_start", "content_block_delta", "content_block_delta", "content_block_stop"],
      ...["content_block_start", "content_block_delta", "content_block_delta", "content_block_delta"],
      ...["content_block_stop", "message_delta", "message_stop"],
    ]);
    for (const max of [1, 3, 7, 64, RECORDED.length]) {
      expect(read(chunked(RECORDED, max)), `chunks of up to ${max} bytes`).toEqual(expected);
    }
  });

  it("throws an error event as the SDK's APIError, with the API's error type, message and the response's headers", async () => {
    const headers = new Headers({ "request-id": "req_1" });
    let thrown: unknown;
    try {
      read(chunked(ERROR_MID_STREAM, 5), headers);
    } catch (error) {
      thrown = error;
    }
    const sdk = await sdkEvents(chunked(ERROR_MID_STREAM, 5)).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(APIError);
    expect(thrown).toMatchObject({ type: "overloaded_error", apiMessage: "Overloaded", status: undefined });
    expect((thrown as APIError).headers?.get("request-id")).toBe("req_1");
    expect((thrown as APIError).message).toBe((sdk as APIError).message);
  });

  it("gives the events before an error event first, in the chunk that carried them", () => {
    const reader = new ModelEventReader(new Headers());
    reader.decode(
      new TextEncoder().encode(RECORDED.slice(0, RECORDED.indexOf("event: content_block_start"))),
    );
    expect(reader.next()?.type).toBe("message_start");
    expect(reader.next()).toBeUndefined();
    expect(() => reader.decode(new TextEncoder().encode('event: error\ndata: {"type":"error"}\n\n'))).toThrow(
      APIError,
    );
  });

  it("throws on a data line that is not JSON, as the SDK does", () => {
    expect(() => read([new TextEncoder().encode("event: content_block_delta\ndata: {not json\n\n")])).toThrow(
      SyntaxError,
    );
  });
});

describe("AnthropicModelClient over a recorded stream", () => {
  function clientServing(response: () => Response) {
    return new AnthropicModelClient({
      apiKey: "k",
      model: "claude-test",
      maxRetries: 0,
      fetch: (async () => response()) as typeof fetch,
    });
  }

  it("yields every event of the recorded stream, thinking and citations included", async () => {
    const expected = await sdkEvents(chunked(RECORDED, RECORDED.length));
    const client = clientServing(() => new Response(body(chunked(RECORDED, 9))));
    expect(await collect(client.stream(request(), new AbortController().signal))).toEqual(expected);
  });

  it("turns an error event mid-stream into a ModelError with the API's error type", async () => {
    const client = clientServing(() => new Response(body(chunked(ERROR_MID_STREAM, 9))));
    const error = await expectModelError(
      collect(client.stream(request(), new AbortController().signal)),
      "overloaded",
    );
    expect(error.message).toBe("Overloaded");
  });

  it("lets go of the caller's signal after each call, so a signal that outlives many calls gathers no listeners", async () => {
    const client = clientServing(() => new Response(body(chunked(RECORDED, 64))));
    const signal = new AbortController().signal;
    for (let i = 0; i < 12; i++) await collect(client.stream(request(), signal));
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("closes the response body when its reader stops early", async () => {
    let cancelled = false;
    const chunks = chunked(RECORDED, 16);
    let next = 0;
    const client = clientServing(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              const chunk = chunks[next++];
              if (chunk) controller.enqueue(chunk);
              else controller.close();
            },
            cancel() {
              cancelled = true;
            },
          }),
        ),
    );
    for await (const event of client.stream(request(), new AbortController().signal)) {
      if (event.type === "content_block_start") break;
    }
    expect(cancelled).toBe(true);
    expect(next).toBeLessThan(chunks.length);
  });
});
