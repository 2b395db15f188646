// Whole turns over a real WebSocket with the scripted model: text, tool round-trips, tool failures
// the model recovers from, the iteration cap and a failed model call.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ToolResultBlockParam } from "../../../src/model/model-client";
import { notesRead } from "../../../src/tools/builtin/notes-read";
import { connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import {
  eventsOf,
  expectValidTranscript,
  lastRequest,
  modelRequests,
  streamedText,
  userTexts,
} from "./agent-harness";

afterEach(() => {
  vi.restoreAllMocks();
});

function lastResults(messages: { role: string; content: unknown }[]): ToolResultBlockParam[] {
  const last = messages[messages.length - 1];
  expect(last?.role).toBe("user");
  const content = (last?.content ?? []) as ToolResultBlockParam[];
  return content.filter((b) => b.type === "tool_result");
}

describe("a full turn", () => {
  it("streams a text-only reply and ends the turn with end_turn", async () => {
    const session = await createSession({ script: [textReply("Hello there, friend.")] });
    const device = await connect(session);
    const ack = await device.request({ type: "send_message", text: "hi" });
    expect(ack.ok).toBe(true);
    const done = await device.waitForDone();
    expect(done.data.stopReason).toBe("end_turn");
    expect(streamedText(device)).toBe("Hello there, friend.");
    expect(eventsOf(device, "tool_call_start")).toHaveLength(0);
    const [request] = await modelRequests(session);
    expect(request?.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] },
    ]);
  });

  it("runs current_time and sends its result back to the model before the final answer", async () => {
    const session = await createSession({
      script: [toolReply([{ name: "current_time", input: { timeZone: "UTC" } }]), textReply("It is late.")],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "what time is it?" });
    await device.waitForDone();
    const result = device.event("tool_result");
    expect(result?.data).toMatchObject({ name: "current_time", isError: false });
    expect(result?.data.content).toMatch(/^UTC: \d{4}-\d\d-\d\dT/);
    const requests = await modelRequests(session);
    expect(requests).toHaveLength(2);
    const [block] = lastResults(requests[1]?.messages ?? []);
    expect(block?.tool_use_id).toBe(result?.data.toolCallId);
    expect(block?.content).toBe(result?.data.content);
    expect(block?.is_error).toBeUndefined();
    expect(streamedText(device)).toBe("It is late.");
  });

  it("answers two parallel tool calls in one user message, in tool_use order", async () => {
    const session = await createSession({
      script: [
        toolReply([
          { id: "toolu_zeta", name: "current_time", input: { timeZone: "Asia/Tokyo" } },
          { id: "toolu_alpha", name: "notes_read", input: {} },
        ]),
        textReply("Both done."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "time and notes please" });
    await device.waitForDone();
    const request = await lastRequest(session);
    const results = lastResults(request.messages);
    expect(results.map((r) => r.tool_use_id)).toEqual(["toolu_zeta", "toolu_alpha"]);
    expect(results[0]?.content).toContain("Asia/Tokyo");
    expect(results[1]?.content).toBe("There are no notes yet.");
    expectValidTranscript(request.messages);
  });

  it("turns an unknown tool into an is_error result the model can recover from", async () => {
    const session = await createSession({
      script: [toolReply([{ name: "launch_rocket", input: { target: "moon" } }]), textReply("Sorry.")],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    const done = await device.waitForDone();
    expect(done.data.stopReason).toBe("end_turn");
    expect(device.event("tool_result")?.data).toMatchObject({ name: "launch_rocket", isError: true });
    const [result] = lastResults((await lastRequest(session)).messages);
    expect(result?.is_error).toBe(true);
    expect(result?.content).toContain('Unknown tool "launch_rocket"');
    expect(result?.content).toContain("current_time");
    expect(streamedText(device)).toBe("Sorry.");
  });

  it("rejects invalid tool input with an is_error result naming the field, without asking anyone", async () => {
    const session = await createSession({
      permissionMode: "default",
      script: [toolReply([{ name: "notes_write", input: { key: "plan" } }]), textReply("Oops.")],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "save a note" });
    await device.waitForDone();
    expect(device.event("approval_required")).toBeUndefined();
    const [result] = lastResults((await lastRequest(session)).messages);
    expect(result?.is_error).toBe(true);
    expect(result?.content).toMatch(/Invalid input for tool "notes_write": text: /);
  });

  it("turns a tool that throws into an is_error result that says it failed", async () => {
    vi.spyOn(notesRead, "run").mockRejectedValue(new Error("disk on fire"));
    const session = await createSession({
      script: [toolReply([{ name: "notes_read", input: {} }]), textReply("Could not read.")],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "read notes" });
    const done = await device.waitForDone();
    expect(done.data.stopReason).toBe("end_turn");
    const [result] = lastResults((await lastRequest(session)).messages);
    expect(result).toMatchObject({ is_error: true, content: 'Tool "notes_read" failed: disk on fire' });
  });

  it("reports a failed outbound fetch from fetch_url as an is_error result", async () => {
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("network unreachable"));
    const session = await createSession({
      permissionMode: "bypassPermissions",
      script: [
        toolReply([{ name: "fetch_url", input: { url: "https://example.com/page" } }]),
        textReply("No."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "fetch it" });
    await device.waitForDone();
    const [result] = lastResults((await lastRequest(session)).messages);
    expect(result?.is_error).toBe(true);
    expect(result?.content).toContain("https://example.com/page");
    expect(result?.content).toContain("network unreachable");
  });
});

describe("the iteration cap", () => {
  it("ends a turn after 25 model calls with an iteration_limit error, and the next message still works", async () => {
    const looping = Array.from({ length: 26 }, () => toolReply([{ name: "current_time", input: {} }]));
    const session = await createSession({
      permissionMode: "bypassPermissions",
      script: [...looping, textReply("Finally done.")],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "loop forever" });
    const done = await device.waitForDone(1, 10_000);
    expect(done.data.stopReason).toBe("iteration_limit");
    expect(device.event("error")?.data.code).toBe("iteration_limit");
    expect(await modelRequests(session)).toHaveLength(25);
    await device.waitForEvent("session_status", (e) => e.seq > done.seq && e.data.status === "idle");

    await device.request({ type: "send_message", text: "stop now" });
    const second = await device.waitForDone(2);
    expect(second.data.stopReason).toBe("end_turn");
    const requests = await modelRequests(session);
    expect(requests).toHaveLength(27);
    for (const request of requests.slice(25)) expectValidTranscript(request.messages);
  });
});

describe("a failed model call", () => {
  it("that will not pass (invalid request) fails the turn with an error event and a failed status, then a next message sends a valid transcript", async () => {
    const session = await createSession({
      script: [
        toolReply([{ name: "current_time", input: {} }]),
        { content: [], error: { code: "invalid_request", message: "prompt is malformed" } },
        textReply("I am back."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "first" });
    const done = await device.waitForDone();
    expect(done.data.stopReason).toBe("error");
    const error = device.event("error");
    expect(error?.data).toEqual({ code: "model_invalid_request", message: "prompt is malformed" });
    const failed = await device.waitForEvent("session_status", (e) => e.data.status === "failed");
    expect(failed.data.error).toContain("prompt is malformed");
    expect(failed.seq).toBeGreaterThan(error?.seq ?? Number.POSITIVE_INFINITY);

    await device.request({ type: "send_message", text: "second" });
    const next = await device.waitForDone(2);
    expect(next.data.stopReason).toBe("end_turn");
    await device.waitForEvent("session_status", (e) => e.seq > next.seq && e.data.status === "idle");
    const request = await lastRequest(session);
    expectValidTranscript(request.messages);
    expect(userTexts(request)).toEqual(["first", "second"]);
  });
});
