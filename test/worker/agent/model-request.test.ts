// What the model is sent on each call of a real session: the session's system prompt, every tool
// schema, the stored transcript, and prompt-caching breakpoints in the right places.
import { describe, expect, it } from "vitest";
import type { ModelRequest } from "../../../src/model/model-client";
import { DEFAULT_SYSTEM_PROMPT } from "../../../src/session/stores/turn-store";
import { connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { expectValidTranscript, modelRequests } from "./agent-harness";

const HOUR = { type: "ephemeral", ttl: "1h" };
const SHORT = { type: "ephemeral" };

/** Every cache_control marker in a request, with where it sits. */
function cacheMarkers(request: ModelRequest): Array<[string, unknown]> {
  const found: Array<[string, unknown]> = [];
  request.system.forEach((block, i) => {
    if (block.cache_control) found.push([`system.${i}`, block.cache_control]);
  });
  request.tools.forEach((tool, i) => {
    if (tool.cache_control) found.push([`tools.${i}`, tool.cache_control]);
  });
  request.messages.forEach((message, i) => {
    if (typeof message.content === "string") return;
    message.content.forEach((block, j) => {
      if ("cache_control" in block && block.cache_control)
        found.push([`messages.${i}.${j}`, block.cache_control]);
    });
  });
  return found;
}

describe("the model request", () => {
  it("carries the session's system prompt and every tool schema, AskUserQuestion and Agent included", async () => {
    const session = await createSession({
      systemPrompt: "You are a terse pirate.",
      script: [textReply("Arr.")],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "hello" });
    await device.waitForDone();
    const [request] = await modelRequests(session);
    expect(request?.system).toEqual([{ type: "text", text: "You are a terse pirate.", cache_control: HOUR }]);
    expect(request?.tools.map((tool) => tool.name)).toEqual([
      "current_time",
      "notes_read",
      "notes_write",
      "calendar_add_event",
      "fetch_url",
      "AskUserQuestion",
      "RequestUserInput",
      "ExitPlanMode",
      "Agent",
    ]);
    for (const tool of request?.tools ?? []) {
      expect(tool.description?.length).toBeGreaterThan(20);
      expect(tool.input_schema.type).toBe("object");
    }
    const byName = new Map(request?.tools.map((tool) => [tool.name, tool]));
    expect(byName.get("notes_write")?.input_schema.required).toEqual(["key", "text"]);
    expect(byName.get("fetch_url")?.input_schema.required).toEqual(["url"]);
    expect(byName.get("AskUserQuestion")?.input_schema.properties).toHaveProperty("questions");
    expect(byName.get("RequestUserInput")?.input_schema.required).toEqual(["message", "requestedSchema"]);
    expect(request?.max_tokens).toBeGreaterThan(0);
  });

  it("falls back to the built-in system prompt when the session sets none", async () => {
    const session = await createSession({ script: [textReply("Hi.")] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "hello" });
    await device.waitForDone();
    const [request] = await modelRequests(session);
    expect(request?.system[0]?.text).toBe(DEFAULT_SYSTEM_PROMPT);
  });

  it("sends the prior transcript with breakpoints on the system prompt, the last tool and only the last block", async () => {
    const session = await createSession({
      script: [
        toolReply([{ id: "toolu_t", name: "current_time", input: {} }], "Checking the clock."),
        textReply("It is noon."),
        textReply("You are welcome."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "what time is it?" });
    await device.waitForDone();
    await device.request({ type: "send_message", text: "thanks" });
    await device.waitForDone(2);
    const requests = await modelRequests(session);
    const third = requests[2];
    if (!third) throw new Error("expected three model calls");
    expectValidTranscript(third.messages);
    expect(third.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(third.messages[1]?.content).toEqual([
      { type: "text", text: "Checking the clock." },
      { type: "tool_use", id: "toolu_t", name: "current_time", input: {} },
    ]);
    expect(third.messages[3]?.content).toEqual([{ type: "text", text: "It is noon." }]);
    // Earlier breakpoints are not stored: each request has exactly three, the API allows four.
    const last = `messages.4.0`;
    expect(cacheMarkers(third)).toEqual([
      ["system.0", HOUR],
      ["tools.8", HOUR],
      [last, SHORT],
    ]);
    expect(cacheMarkers(requests[1] as ModelRequest)).toEqual([
      ["system.0", HOUR],
      ["tools.8", HOUR],
      ["messages.2.0", SHORT],
    ]);
  });

  it("switches the rolling breakpoint to the 1-hour TTL once the turn has asked a person", async () => {
    const session = await createSession({
      permissionMode: "default",
      script: [
        toolReply([{ id: "toolu_w", name: "notes_write", input: { key: "a", text: "b" } }]),
        textReply("Saved it."),
        textReply("Anything else?"),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "save a note" });
    await device.waitForEvent("approval_required");
    const ack = await device.request({ type: "approve", toolCallId: "toolu_w" });
    expect(ack.ok).toBe(true);
    await device.waitForDone();
    await device.request({ type: "send_message", text: "thanks" });
    await device.waitForDone(2);

    const [first, afterApproval, nextTurn] = await modelRequests(session);
    expect(cacheMarkers(first as ModelRequest).at(-1)).toEqual(["messages.0.0", SHORT]);
    expect(cacheMarkers(afterApproval as ModelRequest).at(-1)).toEqual(["messages.2.0", HOUR]);
    // A new turn has not asked anyone yet, so it goes back to the 5-minute cache.
    expect(cacheMarkers(nextTurn as ModelRequest).at(-1)).toEqual(["messages.4.0", SHORT]);
  });
});
