// The events a device sees during a turn: their order, what they carry, that text arrives while the
// model still streams, and how many stored rows a long streamed reply costs.
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../../src/protocol";
import {
  type CreatedSession,
  connect,
  createSession,
  type Device,
  textReply,
} from "../../helpers/session-harness";
import { eventsOf, stats, streamedText } from "./agent-harness";

/** Event types in order, with runs of the same streamed type collapsed to one. */
function shape(events: SessionEvent[]): string[] {
  const out: string[] = [];
  for (const event of events) {
    const name = event.type === "session_status" ? `session_status:${event.data.status}` : event.type;
    if (out[out.length - 1] === name && (name === "text_delta" || name === "tool_call_delta")) continue;
    out.push(name);
  }
  return out;
}

/** Records when each event type first reached the device (client clock). */
function arrivals(device: Device): Map<string, number> {
  const first = new Map<string, number>();
  device.socket.addEventListener("message", (message) => {
    const data = typeof message.data === "string" ? message.data : "";
    const type = /"type":"(\w+)"/.exec(data)?.[1];
    if (type && !first.has(type)) first.set(type, Date.now());
  });
  return first;
}

/** Stats once the turn's closing status change is stored. */
async function settled(session: CreatedSession, device: Device) {
  await device.until(() => device.events[device.events.length - 1]?.type === "session_status", "idle");
  return stats(session);
}

describe("streaming events", () => {
  it("emits a turn as ordered events: start, text, a tool call with its parsed input, its result, done", async () => {
    const session = await createSession({
      script: [
        {
          content: [
            { type: "text", text: "Let me check." },
            {
              type: "tool_use",
              id: "toolu_clock",
              name: "current_time",
              input: { timeZone: "Europe/Paris" },
            },
          ],
          textChunkSize: 5,
        },
        textReply("It is teatime.", { usage: { input_tokens: 100, output_tokens: 7 } }),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "time in Paris?" });
    const done = await device.waitForDone();
    await device.waitForEvent("session_status", (e) => e.seq > done.seq);

    expect(shape(device.events)).toEqual([
      "user_message",
      "turn_started",
      "session_status:running",
      "text_delta",
      "tool_call_start",
      "tool_call_delta",
      "tool_call_end",
      "tool_result",
      "text_delta",
      "done",
      "session_status:idle",
    ]);
    const turnId = device.event("turn_started")?.data.turnId;
    // The main agent speaks: every event it produces says so.
    const main = { frameId: "main", agent: "main", depth: 0 };
    expect(device.event("tool_call_start")?.data).toEqual({
      turnId,
      toolCallId: "toolu_clock",
      name: "current_time",
      index: 1,
      ...main,
    });
    const json = eventsOf(device, "tool_call_delta")
      .map((e) => e.data.partialJson)
      .join("");
    expect(JSON.parse(json)).toEqual({ timeZone: "Europe/Paris" });
    expect(device.event("tool_call_end")?.data).toEqual({
      toolCallId: "toolu_clock",
      name: "current_time",
      input: { timeZone: "Europe/Paris" },
      ...main,
    });
    expect(device.event("tool_result")?.data.content).toContain("Europe/Paris");
    expect(streamedText(device)).toBe("Let me check.It is teatime.");
    expect(eventsOf(device, "text_delta").every((e) => e.data.turnId === turnId)).toBe(true);

    expect(done.data.turnId).toBe(turnId);
    expect(done.data.stopReason).toBe("end_turn");
    // The first call's output is estimated from its 40 characters (10 tokens); the second is scripted.
    expect(done.data.usage?.output_tokens).toBe(17);
    expect(done.data.usage?.input_tokens).toBeGreaterThan(100);
  });

  it("delivers the first text live while the model is still streaming, well before the turn is done", async () => {
    const session = await createSession({
      script: [textReply("x".repeat(200), { textChunkSize: 10, paceMs: 15 })],
    });
    const device = await connect(session);
    const seen = arrivals(device);
    await device.request({ type: "send_message", text: "talk slowly" });
    await device.waitForDone();
    const first = seen.get("delta") ?? Number.POSITIVE_INFINITY;
    const done = seen.get("done") ?? 0;
    // 20 deltas 15 ms apart take ~285 ms; the first must not wait for the end.
    expect(done - first).toBeGreaterThanOrEqual(150);
    expect(streamedText(device)).toBe("x".repeat(200));
  });

  it("coalesces 1 000 one-character deltas into at most 50 text_delta events (measured: 41, and 39 extra rows)", async () => {
    const session = await createSession({
      script: [textReply("a", { textChunkSize: 1 }), textReply("b".repeat(1000), { textChunkSize: 1 })],
    });
    const device = await connect(session);
    // A one-delta turn first: the long turn's extra rows over it are what the deltas cost.
    const start = await stats(session);
    await device.request({ type: "send_message", text: "short" });
    await device.waitForDone();
    const middle = await settled(session, device);
    await device.request({ type: "send_message", text: "long" });
    await device.waitForDone(2);
    const end = await settled(session, device);

    const deltas = (end.eventsByType.text_delta ?? 0) - (middle.eventsByType.text_delta ?? 0);
    const shortRows = middle.rowsWritten - start.rowsWritten;
    const longRows = end.rowsWritten - middle.rowsWritten;
    // Measured: 41 text_delta events, and 62 rows for the long turn against 23 for the short one.
    expect(deltas).toBeLessThanOrEqual(50);
    expect(longRows - shortRows).toBeLessThanOrEqual(50);
    expect(streamedText(device)).toBe(`a${"b".repeat(1000)}`);
  });
});
