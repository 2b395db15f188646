import { describe, expect, it } from "vitest";
import { MAX_DELAY_MS, StreamAssembler, type StreamOutput } from "../../../src/agent/stream-assembler";
import type { ModelStreamEvent } from "../../../src/model/model-client";
import type { ScriptedReply } from "../../../src/model/scripted-reply";
import { sseEvents } from "../../../src/model/sse-events";

/** An assembler on a hand-driven clock that records what it emits. */
function harness() {
  const clock = { now: 0 };
  const out: StreamOutput[] = [];
  const assembler = new StreamAssembler(
    (output) => out.push(output),
    () => clock.now,
  );
  return { clock, out, assembler };
}

function play(reply: ScriptedReply): ModelStreamEvent[] {
  return sseEvents(reply, { callIndex: 0, model: "test-model", inputTokens: 42 });
}

function textOf(out: StreamOutput[]): string {
  return out.map((o) => (o.type === "text_delta" ? o.text : "")).join("");
}

describe("StreamAssembler", () => {
  it("rebuilds text and tool_use blocks, the stop reason and the usage from the raw stream", () => {
    const { assembler } = harness();
    const events = play({
      content: [
        { type: "text", text: "Let me look that up." },
        { type: "tool_use", id: "toolu_1", name: "notes_read", input: { key: "plan" } },
      ],
      usage: { input_tokens: 10, output_tokens: 25 },
      textChunkSize: 3,
    });
    for (const event of events) assembler.push(event);
    expect(assembler.finish()).toEqual({
      content: [
        { type: "text", text: "Let me look that up." },
        { type: "tool_use", id: "toolu_1", name: "notes_read", input: { key: "plan" } },
      ],
      stopReason: "tool_use",
      usage: { input_tokens: 10, output_tokens: 25 },
    });
  });

  it("counts cache writes and reads as input tokens", () => {
    const { assembler } = harness();
    const [start, ...rest] = play({ content: [{ type: "text", text: "hi" }] });
    if (start?.type !== "message_start") throw new Error("expected message_start first");
    const usage = {
      ...start.message.usage,
      input_tokens: 5,
      cache_creation_input_tokens: 100,
      cache_read_input_tokens: 1000,
    };
    assembler.push({ ...start, message: { ...start.message, usage } });
    for (const event of rest) if (event.type !== "message_delta") assembler.push(event);
    expect(assembler.finish().usage.input_tokens).toBe(1105);
  });

  it("sends the first delta at once, then merges a burst so 1 000 deltas make at most 50 events", () => {
    const { out, assembler } = harness();
    const text = "abcdefghij".repeat(100);
    for (const event of play({ content: [{ type: "text", text }], textChunkSize: 1 })) {
      assembler.push(event);
      if (event.type === "content_block_delta") {
        // The first delta is emitted before the second arrives.
        expect(out.length).toBeGreaterThan(0);
      }
    }
    const deltas = out.filter((o) => o.type === "text_delta");
    expect(deltas.length).toBeLessThanOrEqual(50);
    expect(deltas[0]).toEqual({ type: "text_delta", index: 0, text: "a" });
    expect(textOf(out)).toBe(text);
  });

  it("sends each delta alone when they arrive further apart than the coalescing window", () => {
    const { clock, out, assembler } = harness();
    for (const event of play({ content: [{ type: "text", text: "one two three four" }], textChunkSize: 4 })) {
      clock.now += MAX_DELAY_MS;
      assembler.push(event);
    }
    expect(out.map((o) => (o.type === "text_delta" ? o.text : o.type))).toEqual([
      "one ",
      "two ",
      "thre",
      "e fo",
      "ur",
    ]);
  });

  it("flushes buffered text before a tool call starts, so devices see events in stream order", () => {
    const { out, assembler } = harness();
    const events = play({
      content: [
        { type: "text", text: "Checking the time now." },
        { type: "tool_use", id: "toolu_t", name: "current_time", input: { timeZone: "UTC" } },
      ],
      textChunkSize: 2,
    });
    for (const event of events) assembler.push(event);
    const kinds = out.map((o) => o.type);
    const lastText = kinds.lastIndexOf("text_delta");
    expect(lastText).toBeLessThan(kinds.indexOf("tool_call_start"));
    expect(textOf(out)).toBe("Checking the time now.");
    expect(out.filter((o) => o.type === "tool_call_start")).toEqual([
      { type: "tool_call_start", toolCallId: "toolu_t", name: "current_time", index: 1 },
    ]);
    const json = out.map((o) => (o.type === "tool_call_delta" ? o.partialJson : "")).join("");
    expect(JSON.parse(json)).toEqual({ timeZone: "UTC" });
    expect(out.at(-1)).toEqual({
      type: "tool_call_end",
      toolCallId: "toolu_t",
      name: "current_time",
      input: { timeZone: "UTC" },
    });
  });

  it("turns truncated tool input JSON into an empty object rather than failing", () => {
    const { out, assembler } = harness();
    const events: ModelStreamEvent[] = [
      {
        type: "content_block_start",
        index: 0,
        content_block: {
          type: "tool_use",
          id: "toolu_x",
          name: "notes_write",
          input: {},
          caller: { type: "direct" },
        },
      },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: '{"key": "pl' },
      },
      { type: "content_block_stop", index: 0 },
      {
        type: "message_delta",
        delta: { stop_reason: "max_tokens", stop_sequence: null, stop_details: null, container: null },
        usage: {
          input_tokens: 1,
          output_tokens: 9,
          cache_creation_input_tokens: null,
          cache_read_input_tokens: null,
          output_tokens_details: null,
          server_tool_use: null,
        },
      },
    ];
    for (const event of events) assembler.push(event);
    expect(out.at(-1)).toMatchObject({ type: "tool_call_end", input: {} });
    const message = assembler.finish();
    expect(message.content).toEqual([{ type: "tool_use", id: "toolu_x", name: "notes_write", input: {} }]);
    expect(message.stopReason).toBe("max_tokens");
    expect(message.usage.output_tokens).toBe(9);
  });

  it("drops empty and whitespace-only text blocks, which the Messages API rejects", () => {
    const { assembler } = harness();
    const events = play({
      content: [
        { type: "text", text: "  \n" },
        { type: "tool_use", id: "toolu_a", name: "current_time", input: {} },
      ],
    });
    for (const event of events) assembler.push(event);
    expect(assembler.finish().content).toEqual([
      { type: "tool_use", id: "toolu_a", name: "current_time", input: {} },
    ]);
  });

  it("gives the text streamed so far, without unfinished tool calls, and emits what was still buffered", () => {
    const { out, assembler } = harness();
    const events = play({
      content: [
        { type: "text", text: "Partial thought" },
        { type: "tool_use", id: "toolu_p", name: "current_time", input: {} },
      ],
      textChunkSize: 3,
    });
    // Stop inside the tool call: its start arrived, its end did not.
    const cut = events.findIndex((e) => e.type === "content_block_start" && e.index === 1) + 1;
    for (const event of events.slice(0, cut)) assembler.push(event);
    expect(assembler.partialText()).toEqual([{ type: "text", text: "Partial thought" }]);
    expect(textOf(out)).toBe("Partial thought");

    const { out: quiet, assembler: midText } = harness();
    // message_start, content_block_start, then "Par", "tia", "l t".
    for (const event of events.slice(0, 5)) midText.push(event);
    expect(midText.partialText()).toEqual([{ type: "text", text: "Partial t" }]);
    expect(textOf(quiet)).toBe("Partial t");
  });
});
