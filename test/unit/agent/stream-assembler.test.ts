import { describe, expect, it } from "vitest";
import { MAX_EVENT_CHARS, PAUSE_FLUSH_MS } from "../../../src/agent/storage-coalescer";
import { type LiveDelta, StreamAssembler, type StreamOutput } from "../../../src/agent/stream-assembler";
import type { ModelStreamEvent } from "../../../src/model/model-client";
import type { ScriptedReply } from "../../../src/model/scripted-reply";
import { sseEvents } from "../../../src/model/sse-events";
import { handClock } from "./hand-clock";

/** An assembler on a hand-driven clock and timer that records what it stores and sends live. */
function harness({ storeWhileFlowing = false } = {}) {
  const { clock, now, schedule, advance, pendingTimers } = handClock();
  const out: StreamOutput[] = [];
  /** When each output was emitted, on the hand-driven clock. */
  const outAt: number[] = [];
  const live: LiveDelta[] = [];
  const assembler = new StreamAssembler(
    (output) => {
      out.push(output);
      outAt.push(clock.now);
    },
    now,
    {
      live: (delta) => {
        live.push(delta);
        return 1;
      },
      storeWhileFlowing: () => storeWhileFlowing,
      schedule,
    },
  );
  return { clock, out, outAt, live, assembler, advance, pendingTimers };
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

  it("sends each delta live at once, in the task that read it, with the offset it starts at", () => {
    const { out, live, assembler, advance } = harness();
    const events = play({ content: [{ type: "text", text: "one two three" }], textChunkSize: 4 });
    for (const event of events) {
      const before = live.length;
      assembler.push(event);
      // No timer has run: the delta went out inside push().
      if (event.type === "content_block_delta") expect(live.length).toBe(before + 1);
      advance(2.5);
    }
    expect(live).toEqual([
      { index: 0, offset: 0, text: "one " },
      { index: 0, offset: 4, text: "two " },
      { index: 0, offset: 8, text: "thre" },
      { index: 0, offset: 12, text: "e" },
    ]);
    // Stored: one event covering the whole block, from offset 0.
    expect(out).toEqual([{ type: "text_delta", index: 0, offset: 0, text: "one two three" }]);
  });

  it("sends at most one live frame a millisecond: faster deltas wait at most that long and go out together", () => {
    const { clock, live, assembler, advance } = harness();
    const sentAt: number[] = [];
    const events = play({ content: [{ type: "text", text: "abcdefghijklmnop" }], textChunkSize: 2 });
    const [start, blockStart, ...rest] = events;
    assembler.push(start as ModelStreamEvent);
    assembler.push(blockStart as ModelStreamEvent);
    const deltas = rest.filter((event) => event.type === "content_block_delta");
    const arrivedAt: number[] = [];
    // A burst: a delta every 0.25 ms, each read in its own task.
    for (const delta of deltas) {
      const before = live.length;
      arrivedAt.push(clock.now);
      assembler.push(delta);
      for (let i = before; i < live.length; i++) sentAt.push(clock.now);
      const sending = live.length;
      advance(0.25);
      for (let i = sending; i < live.length; i++) sentAt.push(clock.now);
    }
    const sending = live.length;
    advance(1);
    for (let i = sending; i < live.length; i++) sentAt.push(clock.now);
    expect(live[0]).toEqual({ index: 0, offset: 0, text: "ab" });
    // Eight deltas in 2 ms went out as three frames, exact and in order, none later than 1 ms.
    expect(live.length).toBe(3);
    expect(live.map((d) => d.text).join("")).toBe("abcdefghijklmnop");
    let offset = 0;
    live.forEach((delta, i) => {
      expect(delta.offset).toBe(offset);
      offset += delta.text.length;
      const firstPiece = delta.offset / 2;
      expect((sentAt[i] ?? Number.POSITIVE_INFINITY) - (arrivedAt[firstPiece] ?? 0)).toBeLessThanOrEqual(1);
    });
    // The block ended: nothing is held, and the stored copy matches.
    for (const event of rest.filter((event) => event.type !== "content_block_delta")) assembler.push(event);
    expect(live.map((d) => d.text).join("")).toBe("abcdefghijklmnop");
  });

  it("stores nothing while 1 000 deltas flow every 2.5 ms, so no write holds a live frame, then all of it exactly", () => {
    const { out, live, assembler, advance } = harness();
    const text = "abcdefghij".repeat(100);
    const events = play({ content: [{ type: "text", text }], textChunkSize: 1 });
    const stop = events.findIndex((event) => event.type === "content_block_stop");
    for (const event of events.slice(0, stop)) {
      assembler.push(event);
      advance(2.5);
    }
    expect(out.filter((o) => o.type === "text_delta")).toEqual([]);
    expect(live.map((d) => d.text).join("")).toBe(text);
    for (const event of events.slice(stop)) assembler.push(event);
    expect(out.filter((o) => o.type === "text_delta")).toEqual([
      { type: "text_delta", index: 0, offset: 0, text },
    ]);
  });

  it("stores a long flowing stream as several events of bounded size whose offsets chain", () => {
    const { out, assembler, advance } = harness();
    const text = "0123456789abcdef".repeat(2_500);
    for (const event of play({ content: [{ type: "text", text }], textChunkSize: 16 })) {
      assembler.push(event);
      advance(1);
    }
    const stored = out.flatMap((o) => (o.type === "text_delta" ? [o] : []));
    expect(stored.length).toBeGreaterThan(1);
    expect(Math.max(...stored.map((event) => event.text.length))).toBeLessThanOrEqual(MAX_EVENT_CHARS + 16);
    expect(stored.map((event) => event.text).join("")).toBe(text);
    expect(stored.map((event) => event.offset)).toEqual(
      stored.map((_, i) => stored.slice(0, i).reduce((sum, event) => sum + event.text.length, 0)),
    );
  });

  it("while someone reads stored events only, stores a flowing stream in at most 4 events a second", () => {
    const { out, assembler, advance } = harness({ storeWhileFlowing: true });
    const text = "abcdefghij".repeat(100);
    for (const event of play({ content: [{ type: "text", text }], textChunkSize: 1 })) {
      assembler.push(event);
      advance(2.5);
    }
    const stored = out.filter((o) => o.type === "text_delta");
    expect(stored.length).toBeLessThanOrEqual(50);
    expect(stored.length).toBeLessThanOrEqual(Math.ceil(((1000 * 2.5) / 1000) * 4) + 1);
    expect(textOf(out)).toBe(text);
    // Offsets chain: each stored event starts where the one before ended.
    let at = 0;
    for (const event of stored) {
      if (event.type !== "text_delta") continue;
      expect(event.offset).toBe(at);
      at += event.text.length;
    }
  });

  it("stores 1 000 deltas streamed every 20 ms (a real model's pace) in at most 50 events", () => {
    const { out, assembler, advance } = harness();
    const text = "x".repeat(1000);
    for (const event of play({ content: [{ type: "text", text }], textChunkSize: 1 })) {
      assembler.push(event);
      advance(20);
    }
    expect(out.filter((o) => o.type === "text_delta").length).toBeLessThanOrEqual(50);
    expect(textOf(out)).toBe(text);
  });

  it("stores a paused stream's text within 100 ms of its last delta, from the timer alone", () => {
    const { out, assembler, advance, pendingTimers } = harness();
    const events = play({ content: [{ type: "text", text: "The answer is" }], textChunkSize: 4 });
    const stop = events.findIndex((e) => e.type === "content_block_stop");
    for (const event of events.slice(0, stop)) {
      assembler.push(event);
      advance(20);
    }
    // The model goes quiet mid-sentence: nothing arrives, yet the text is stored in time.
    const quietSince = 20;
    advance(100 - quietSince);
    expect(textOf(out)).toBe("The answer is");
    expect(PAUSE_FLUSH_MS).toBeLessThan(100);
    expect(pendingTimers()).toBe(0);
  });

  it("at any pace stores at most 10 events a second, and all of it within 100 ms once the model falls silent", () => {
    for (const pace of [5, 45, 61, 65, 99, 150]) {
      const { clock, out, outAt, assembler, advance } = harness();
      const arrivedAt: number[] = [];
      const text = "y".repeat(100);
      for (const event of play({ content: [{ type: "text", text }], textChunkSize: 1 })) {
        if (event.type === "content_block_stop") break;
        if (event.type === "content_block_delta") arrivedAt.push(clock.now);
        assembler.push(event);
        advance(pace);
      }
      advance(1_000);
      expect(textOf(out)).toBe(text);
      const seconds = (arrivedAt.length * pace) / 1000;
      expect(out.length, `pace ${pace}`).toBeLessThanOrEqual(Math.ceil(seconds * 10) + 1);
      // When the model falls silent, everything it sent is stored within 100 ms of its last delta.
      const lastArrival = arrivedAt.at(-1) ?? 0;
      expect((outAt.at(-1) ?? 0) - lastArrival, `pace ${pace}`).toBeLessThanOrEqual(100);
    }
  });

  it("gives what is streamed but not yet stored as one delta, for a device that joins mid-stream", () => {
    const { out, assembler, live } = harness();
    const events = play({ content: [{ type: "text", text: "abcdefghij" }], textChunkSize: 2 });
    for (const event of events.slice(0, 5)) assembler.push(event);
    expect(out).toEqual([]);
    expect(assembler.unstored()).toEqual({ index: 0, offset: 0, text: "abcdef" });
    assembler.stop();
    expect(live.map((d) => d.text).join("")).toBe("abcdef");
  });

  it("flushes buffered text before a tool call starts, so devices see events in stream order", () => {
    const { out, live, assembler } = harness();
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
    expect(
      live
        .filter((d) => d.toolCallId === "toolu_t")
        .map((d) => d.text)
        .join(""),
    ).toBe(JSON.stringify({ timeZone: "UTC" }));
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
