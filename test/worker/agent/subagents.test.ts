// Interactive subagents end to end over a real WebSocket with the scripted model: one test per row
// of the seed's Behaviors and Errors tables, with the agents shipped in agents/.
import { describe, expect, it } from "vitest";
import type { ToolResultBlockParam } from "../../../src/model/model-client";
import { api, connect, createSession, textReply, toolReply } from "../../helpers/session-harness";
import { storageDump } from "../../helpers/session-object-probe";
import { eventsOf, expectValidTranscript, modelRequests, sqlRows } from "./agent-harness";

const delegate = (id: string, agent: string, prompt = "Help, please.") => ({
  id,
  name: "Agent",
  input: { description: `Ask ${agent}`, prompt, subagent_type: agent },
});
const complete = (id: string, result: string) => ({ id, name: "complete", input: { result } });

function lastResults(messages: { role: string; content: unknown }[] | undefined): ToolResultBlockParam[] {
  const last = messages?.at(-1);
  const content = (last?.content ?? []) as ToolResultBlockParam[];
  return content.filter((b) => b.type === "tool_result");
}

describe("interactive subagents", () => {
  it("a subagent that completes on its first turn cascades its result to the main agent at once", async () => {
    const session = await createSession({
      script: [
        toolReply([delegate("toolu_d", "researcher", "Find async APIs.")]),
        toolReply([complete("toolu_c", "asyncio and trio.")]),
        textReply("The researcher says: asyncio and trio."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "research" });
    await device.waitForDone();
    const started = device.event("agent_started");
    expect(started?.data).toMatchObject({ agent: "researcher", parentToolCallId: "toolu_d", depth: 1 });
    expect(device.event("agent_completed")?.data).toMatchObject({
      frameId: started?.data.frameId,
      outcome: "completed",
      result: "asyncio and trio.",
    });
    const [, child, main] = await modelRequests(session);
    expect(child?.system?.[0]?.text).toMatch(/^You are a careful researcher/);
    expect(lastResults(main?.messages)).toEqual([
      expect.objectContaining({ tool_use_id: "toolu_d", content: "asyncio and trio." }),
    ]);
    expect(eventsOf(device, "done")).toHaveLength(1);
  });

  it("a subagent that needs the person keeps the conversation: its question, then their next message, go to it", async () => {
    const session = await createSession({
      script: [
        toolReply([delegate("toolu_d", "researcher")]),
        textReply("Which Python version?"),
        toolReply([complete("toolu_c", "3.13 it is.")]),
        textReply("Great, 3.13."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "research" });
    await device.waitForDone();
    const late = await connect(session);
    expect(late.hello?.snapshot.stack).toEqual([
      expect.objectContaining({ agent: "researcher", depth: 1, parentToolCallId: "toolu_d" }),
    ]);
    await late.request({ type: "send_message", text: "3.13" });
    await device.waitForDone(2);
    const requests = await modelRequests(session);
    expect(requests[2]?.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(requests[2]?.messages.at(-1))).toContain("3.13");
    expect(lastResults(requests[3]?.messages)[0]?.content).toBe("3.13 it is.");
    expect((await connect(session)).hello?.snapshot.stack).toEqual([]);
  });

  it("nested subagents: the person talks to the inner one, whose result cascades to the outer, which continues", async () => {
    const session = await createSession({
      permissionMode: "bypassPermissions",
      script: [
        toolReply([delegate("toolu_d1", "researcher")]),
        toolReply([delegate("toolu_d2", "note-keeper", "Save the finding.")]),
        textReply("Under which key should I save it?"),
        toolReply([{ id: "toolu_w", name: "notes_write", input: { key: "finding", text: "trio" } }]),
        toolReply([complete("toolu_c2", "Saved under finding.")]),
        toolReply([{ id: "toolu_t", name: "current_time", input: {} }]),
        toolReply([complete("toolu_c1", "Researched and saved.")]),
        textReply("All done."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    await device.waitForDone();
    expect(device.hello?.snapshot.stack).toEqual([]);
    expect((await connect(session)).hello?.snapshot.stack.map((f) => [f.agent, f.depth])).toEqual([
      ["researcher", 1],
      ["note-keeper", 2],
    ]);
    await device.request({ type: "send_message", text: "finding" });
    await device.waitForDone(2);
    const requests = await modelRequests(session);
    expect(JSON.stringify(requests[3]?.messages.at(-1))).toContain("finding");
    expect(lastResults(requests[5]?.messages)[0]?.content).toBe("Saved under finding.");
    expect(lastResults(requests[7]?.messages)[0]?.content).toBe("Researched and saved.");
    expect(eventsOf(device, "agent_completed").map((e) => e.data.agent)).toEqual([
      "note-keeper",
      "researcher",
    ]);
    for (const request of requests) expectValidTranscript(request.messages);
  });

  it("a subagent past its iteration cap ends, and the main agent gets an is_error result and answers", async () => {
    const reads = Array.from({ length: 6 }, (_, i) =>
      toolReply([{ id: `toolu_r${i}`, name: "notes_read", input: {} }]),
    );
    const session = await createSession({
      script: [toolReply([delegate("toolu_d", "note-keeper")]), ...reads, textReply("It gave up; sorry.")],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    await device.waitForDone();
    expect(device.event("agent_completed")?.data).toMatchObject({
      outcome: "failed",
      result: 'Agent "note-keeper" stopped after 6 model calls (its limit) without calling complete.',
    });
    const requests = await modelRequests(session);
    expect(requests).toHaveLength(8);
    expect(lastResults(requests[7]?.messages)[0]).toMatchObject({ tool_use_id: "toolu_d", is_error: true });
    expect(device.event("done")?.data.stopReason).toBe("end_turn");
  });

  it("a model error inside a subagent ends it and cascades to the parent, which decides what to do", async () => {
    const session = await createSession({
      script: [
        toolReply([delegate("toolu_d", "researcher")]),
        { content: [], error: { code: "invalid_request", message: "prompt is too long" } },
        textReply("The researcher failed; here is what I know."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    await device.waitForDone();
    const [result] = lastResults((await modelRequests(session))[2]?.messages);
    expect(result?.is_error).toBe(true);
    expect(result?.content).toMatch(
      /^Agent "researcher" failed: the model call failed: .*prompt is too long/,
    );
    expect(device.event("session_status", (e) => e.data.status === "failed")).toBeUndefined();
  });

  it("a failing tool inside a subagent is an error result the subagent itself recovers from", async () => {
    const session = await createSession({
      script: [
        toolReply([delegate("toolu_d", "researcher")]),
        toolReply([{ id: "toolu_bad", name: "current_time", input: { timeZone: "Mars/Olympus" } }]),
        toolReply([complete("toolu_c", "Could not tell the time on Mars.")]),
        textReply("ok"),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    await device.waitForDone();
    const requests = await modelRequests(session);
    expect(lastResults(requests[2]?.messages)[0]).toMatchObject({ tool_use_id: "toolu_bad", is_error: true });
    expect(lastResults(requests[3]?.messages)[0]).toMatchObject({
      tool_use_id: "toolu_d",
      content: "Could not tell the time on Mars.",
    });
  });

  it("with an empty stack a message goes to the main agent as usual", async () => {
    const session = await createSession({ script: [textReply("Hello.")] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "hi" });
    await device.waitForDone();
    const [request] = await modelRequests(session);
    expect(request?.tools.map((t) => t.name)).toContain("Agent");
    expect(request?.tools.map((t) => t.name)).not.toContain("complete");
    expect(eventsOf(device, "agent_started")).toHaveLength(0);
  });
});

describe("ending a subagent and bad input", () => {
  it("'End this agent' over HTTP pops the top agent; its parent hears the person ended it and resumes", async () => {
    const session = await createSession({
      script: [
        toolReply([delegate("toolu_d", "researcher")]),
        textReply("What should I look into?"),
        textReply("Understood, I'll stop the research."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    await device.waitForDone();
    const frameId = device.event("agent_started")?.data.frameId;
    const response = await api("POST", `/api/sessions/${session.sessionId}/end-agent`, {
      token: session.token,
      body: { frameId },
    });
    expect(response.status).toBe(200);
    await device.waitForDone(2);
    expect(device.event("agent_completed")?.data).toMatchObject({ frameId, outcome: "ended" });
    const [result] = lastResults((await modelRequests(session))[2]?.messages);
    expect(result).toMatchObject({ tool_use_id: "toolu_d", is_error: true });
    expect(result?.content).toMatch(/^The person ended the conversation with agent "researcher"/);
  });

  it("'End this agent' while the subagent's model is streaming stops it there, and the parent resumes", async () => {
    const session = await createSession({
      script: [
        toolReply([delegate("toolu_d", "researcher")]),
        textReply("I am still thinking about this, slowly", { stallAfterEvents: 4 }),
        textReply("Back with the main agent."),
      ],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    await device.waitForEvent("text_delta", (e) => e.data.text.includes("I am"));
    expect(await device.request({ type: "end_agent" })).toMatchObject({
      ok: true,
      result: { agent: "researcher" },
    });
    const done = await device.waitForDone();
    expect(done.data.stopReason).toBe("end_turn");
    expect(eventsOf(device, "done")).toHaveLength(1);
    const requests = await modelRequests(session);
    expect(requests).toHaveLength(3);
    expect(lastResults(requests[2]?.messages)[0]).toMatchObject({ tool_use_id: "toolu_d", is_error: true });
    const rows = await sqlRows<{ frame_id: string; content: string }>(
      session,
      "SELECT frame_id, content FROM messages WHERE frame_id != 'main' ORDER BY id",
    );
    // The subagent's partial reply is kept in its own transcript, as a cancel keeps it.
    expect(rows.map((row) => JSON.parse(row.content))).toEqual([
      [expect.objectContaining({ type: "text" })],
      [{ type: "text", text: expect.stringMatching(/^I am/) }],
    ]);
  });

  it("'End this agent' with no agent on the stack is a precise error and changes nothing", async () => {
    const session = await createSession({ script: [textReply("Hello.")] });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "hi" });
    await device.waitForDone();
    const before = await storageDump(session);
    const ack = await device.request({ type: "end_agent" });
    expect(ack).toMatchObject({ ok: false, error: { code: "no_agent" } });
    const http = await api("POST", `/api/sessions/${session.sessionId}/end-agent`, { token: session.token });
    expect(http.status).toBe(409);
    expect(await storageDump(session)).toEqual(before);
  });

  it("refuses to end an agent that is not on top, or a malformed request, and changes nothing", async () => {
    const session = await createSession({
      script: [toolReply([delegate("toolu_d", "researcher")]), textReply("What should I look into?")],
    });
    const device = await connect(session);
    await device.request({ type: "send_message", text: "go" });
    await device.waitForDone();
    const before = await storageDump(session);
    expect(await device.request({ type: "end_agent", frameId: "frame_stale" })).toMatchObject({
      ok: false,
      error: { code: "not_top_agent" },
    });
    expect(await device.request({ type: "end_agent", frameId: 7 })).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
    expect(await device.request({ type: "end_agent", extra: true })).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
    const path = `/api/sessions/${session.sessionId}/end-agent`;
    const wrongType = await api("POST", path, { token: session.token, body: { frameId: 5 } });
    expect(wrongType.status).toBe(400);
    const badJson = await api("POST", path, { token: session.token, rawBody: "{frameId:" });
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as { error: { code: string } }).error.code).toBe("bad_json");
    expect(await storageDump(session)).toEqual(before);
  });
});
