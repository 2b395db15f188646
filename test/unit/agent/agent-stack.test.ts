// The agent stack's transitions on the in-memory stores: push, pop, cascade, the per-frame barrier,
// nesting, per-frame caps, model errors, questions inside a child, cancel and "end this agent".
import { describe, expect, it } from "vitest";
import { answerInteraction } from "../../../src/agent/resolve-interaction";
import type { MessageParam, ToolResultBlockParam } from "../../../src/model/model-client";
import type { ScriptedReply } from "../../../src/model/scripted-reply";
import { MAIN_FRAME_ID } from "../../../src/protocol/session/agents";
import { expectValidTranscript } from "../../helpers/valid-transcript";
import { type LoopHarness, loopHarness, text, tools } from "./loop-harness";

const delegate = (id: string, agent: string, prompt = `Please help (${agent}).`) => ({
  id,
  name: "Agent",
  input: { description: `Help from ${agent}`, prompt, subagent_type: agent },
});
const complete = (id: string, result: string) => ({ id, name: "complete", input: { result } });

function resultsIn(message: MessageParam | undefined): ToolResultBlockParam[] {
  const content = typeof message?.content === "string" ? [] : (message?.content ?? []);
  return content.filter((block): block is ToolResultBlockParam => block.type === "tool_result");
}

function frameIds(h: LoopHarness): string[] {
  return h.eventsOf("agent_started").map((event) => event.data.frameId);
}

function expectEveryTranscriptValid(h: LoopHarness): void {
  for (const frameId of [MAIN_FRAME_ID, ...frameIds(h)]) {
    const messages = h.stores.transcript.messagesOf(frameId);
    expectValidTranscript(messages);
  }
}

describe("the agent stack", () => {
  it("hands a first-turn result back to the parent, which resumes at once in the same turn", async () => {
    const h = loopHarness([
      tools(delegate("toolu_d", "researcher", "Find three async APIs.")),
      tools(complete("toolu_c", "Found asyncio, trio and anyio.")),
      text("The researcher found asyncio, trio and anyio."),
    ]);
    await h.say("research async APIs");

    const [main1, child, main2] = h.model.requests;
    expect(child?.messages).toEqual([
      { role: "user", content: [expect.objectContaining({ type: "text", text: "Find three async APIs." })] },
    ]);
    expect(child?.system?.[0]?.text).toMatch(/^You are researcher\.[\s\S]*call the `complete` tool/);
    expect(child?.tools.map((t) => t.name)).toEqual(["current_time", "AskUserQuestion", "Agent", "complete"]);
    expect(main1?.tools.map((t) => t.name)).not.toContain("complete");
    expect(resultsIn(main2?.messages.at(-1))).toEqual([
      expect.objectContaining({ tool_use_id: "toolu_d", content: "Found asyncio, trio and anyio." }),
    ]);
    expect(resultsIn(main2?.messages.at(-1))[0]?.is_error).toBeUndefined();
    expect(h.eventsOf("agent_started").map((e) => e.data)).toEqual([
      {
        frameId: expect.any(String),
        agent: "researcher",
        parentToolCallId: "toolu_d",
        task: "Help from researcher",
        depth: 1,
      },
    ]);
    expect(h.eventsOf("agent_completed").map((e) => [e.data.outcome, e.data.result])).toEqual([
      ["completed", "Found asyncio, trio and anyio."],
    ]);
    expect(h.eventsOf("done")).toHaveLength(1);
    expect(h.stores.frames.stack()).toEqual([]);
    expect(h.stores.turn.status()).toBe("idle");
    expectEveryTranscriptValid(h);
  });

  it("ends the turn when the child replies in text, and routes the next message to the child", async () => {
    const h = loopHarness([
      tools(delegate("toolu_d", "researcher")),
      text("Which Python version do you care about?"),
      tools(complete("toolu_c", "3.13 has TaskGroup.")),
      text("Done: 3.13 has TaskGroup."),
    ]);
    await h.say("research async APIs");
    expect(h.stores.turn.status()).toBe("idle");
    expect(h.eventsOf("done")).toHaveLength(1);
    expect(h.stores.frames.stack().map((f) => [f.agent, f.depth])).toEqual([["researcher", 1]]);
    expect(h.model.requests).toHaveLength(2);

    await h.say("3.13 please");
    const child = h.model.requests[2];
    expect(child?.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(child?.messages.at(-1))).toContain("3.13 please");
    expect(resultsIn(h.model.requests[3]?.messages.at(-1))[0]?.content).toBe("3.13 has TaskGroup.");
    expect(h.stores.transcript.messagesOf(MAIN_FRAME_ID).map((m) => JSON.stringify(m))).not.toContain(
      expect.stringContaining("3.13 please"),
    );
    expect(h.stores.frames.stack()).toEqual([]);
    expectEveryTranscriptValid(h);
  });

  it("nests: the inner agent completes into the middle one, which continues and completes into main", async () => {
    const h = loopHarness([
      tools(delegate("toolu_d1", "researcher")),
      tools(delegate("toolu_d2", "writer", "Write it down.")),
      tools(complete("toolu_c2", "Wrote note k.")),
      tools({ id: "toolu_t", name: "current_time", input: {} }),
      tools(complete("toolu_c1", "Researched, and the writer wrote note k.")),
      text("All done."),
    ]);
    await h.say("go");
    expect(h.eventsOf("agent_started").map((e) => [e.data.agent, e.data.depth])).toEqual([
      ["researcher", 1],
      ["writer", 2],
    ]);
    expect(h.model.requests[2]?.model).toBe("claude-writer");
    expect(h.model.requests[2]?.tools.map((t) => t.name)).toEqual(["notes_write", "Agent", "complete"]);
    expect(resultsIn(h.model.requests[3]?.messages.at(-1))[0]?.content).toBe("Wrote note k.");
    expect(resultsIn(h.model.requests[5]?.messages.at(-1))[0]?.content).toBe(
      "Researched, and the writer wrote note k.",
    );
    expect(h.eventsOf("agent_completed").map((e) => e.data.agent)).toEqual(["writer", "researcher"]);
    expect(h.stores.frames.stack()).toEqual([]);
    expectEveryTranscriptValid(h);
  });

  it("holds the parent's barrier: the other calls settle first, and the next call carries all three results", async () => {
    const h = loopHarness([
      tools({ id: "toolu_1", name: "current_time", input: {} }, delegate("toolu_2", "echo"), {
        id: "toolu_3",
        name: "notes_read",
        input: {},
      }),
      tools(complete("toolu_c", "echoed")),
      text("Three results."),
    ]);
    await h.say("go");
    const order = h.stores.events.events
      .filter((e) => e.type === "tool_result" || e.type === "agent_started")
      .map((e) => (e.type === "tool_result" ? e.data.toolCallId : e.type));
    expect(order).toEqual(["toolu_1", "toolu_3", "agent_started", "toolu_c", "toolu_2"]);
    expect(resultsIn(h.model.requests[2]?.messages.at(-1)).map((r) => r.tool_use_id)).toEqual([
      "toolu_1",
      "toolu_2",
      "toolu_3",
    ]);
    expectEveryTranscriptValid(h);
  });

  it("runs two delegations of one message one after the other", async () => {
    const h = loopHarness([
      tools(delegate("toolu_a", "echo"), delegate("toolu_b", "writer")),
      tools(complete("toolu_ca", "first")),
      tools(complete("toolu_cb", "second")),
      text("Both came back."),
    ]);
    await h.say("go");
    expect(h.eventsOf("agent_started").map((e) => e.data.agent)).toEqual(["echo", "writer"]);
    expect(resultsIn(h.model.requests[3]?.messages.at(-1)).map((r) => r.content)).toEqual([
      "first",
      "second",
    ]);
  });

  it("stops a child at its own iteration cap and cascades an is_error result the parent acts on", async () => {
    const h = loopHarness([
      tools(delegate("toolu_d", "echo")),
      tools({ id: "toolu_x1", name: "current_time", input: {} }),
      tools({ id: "toolu_x2", name: "current_time", input: {} }),
      text("The echo agent gave up; I will answer myself."),
    ]);
    await h.say("go");
    // echo was given no tools: both calls are refused, and the third model call is over its cap of 2.
    expect(h.eventsOf("tool_result").find((e) => e.data.toolCallId === "toolu_x1")?.data).toMatchObject({
      isError: true,
      content: 'Tool "current_time" is not available to agent "echo". Its tools: complete.',
    });
    const [result] = resultsIn(h.model.requests[3]?.messages.at(-1));
    expect(result).toMatchObject({ tool_use_id: "toolu_d", is_error: true });
    expect(result?.content).toBe(
      'Agent "echo" stopped after 2 model calls (its limit) without calling complete.',
    );
    expect(h.eventsOf("agent_completed")[0]?.data.outcome).toBe("failed");
    expect(h.stores.turn.status()).toBe("idle");
    expectEveryTranscriptValid(h);
  });

  it("ends a child whose model call fails and tells the parent, which carries on", async () => {
    const failing: ScriptedReply = {
      content: [],
      error: { code: "invalid_request", message: "prompt too long" },
    };
    const h = loopHarness([
      tools(delegate("toolu_d", "researcher")),
      failing,
      text("Research failed, sorry."),
    ]);
    await h.say("go");
    const [result] = resultsIn(h.model.requests[2]?.messages.at(-1));
    expect(result).toMatchObject({ is_error: true });
    expect(result?.content).toMatch(/^Agent "researcher" failed: the model call failed: .*prompt too long/);
    expect(h.eventsOf("done").map((e) => e.data.stopReason)).toEqual(["end_turn"]);
    expect(h.stores.turn.status()).toBe("idle");
  });

  it("asks questions inside a child and answers them in the child's context", async () => {
    const ask = {
      id: "toolu_q",
      name: "AskUserQuestion",
      input: {
        questions: [
          {
            question: "Which version?",
            header: "Version",
            multiSelect: false,
            options: [
              { label: "3.12", description: "older" },
              { label: "3.13", description: "newer" },
            ],
          },
        ],
      },
    };
    const h = loopHarness([
      tools(delegate("toolu_d", "researcher")),
      tools(ask),
      tools(complete("toolu_c", "3.13")),
      text("ok"),
    ]);
    await h.say("go");
    expect(h.stores.turn.status()).toBe("awaiting_input");
    expect(h.stores.frames.top()?.agent).toBe("researcher");
    await h.say("a message while the card is open");
    expect(h.stores.queue.size()).toBe(1);

    expect(
      answerInteraction(h.deps, {
        interactionId: "toolu_q",
        kind: "question",
        response: { answers: { "Which version?": "3.13" } },
        deviceId: "phone",
      }).ok,
    ).toBe(true);
    await h.loop.advance();
    const child = h.model.requests[2];
    expect(resultsIn(child?.messages.at(-1))[0]?.content).toContain('"Which version?"="3.13"');
    expect(resultsIn(h.model.requests[3]?.messages.at(-1))[0]?.content).toBe("3.13");
  });

  it("refuses bad delegations with results the model can recover from", async () => {
    const h = loopHarness(
      [
        tools(
          delegate("toolu_u", "nobody"),
          { id: "toolu_bad", name: "Agent", input: { prompt: "no type" } },
          delegate("toolu_ok", "researcher"),
        ),
        tools(delegate("toolu_self", "researcher"), delegate("toolu_deep", "writer")),
        tools(complete("toolu_c", "fine")),
        text("done"),
      ],
      { settings: { maxAgentDepth: 1 } },
    );
    await h.say("go");
    const content = (id: string) => h.eventsOf("tool_result").find((e) => e.data.toolCallId === id)?.data;
    expect(content("toolu_u")).toMatchObject({
      isError: true,
      content: expect.stringMatching(
        /^Unknown agent "nobody"\. Available agents: researcher, writer, echo\.$/,
      ),
    });
    expect(content("toolu_bad")).toMatchObject({
      isError: true,
      content: expect.stringContaining("description"),
    });
    expect(content("toolu_self")?.content).toBe(
      'Agent "researcher" cannot delegate to itself; do the work yourself or call complete.',
    );
    expect(content("toolu_deep")?.content).toMatch(/agents may nest at most 1 deep/);
    // At the depth limit the Agent tool is not even offered.
    expect(h.model.requests[1]?.tools.map((t) => t.name)).not.toContain("Agent");
    expect(h.eventsOf("agent_started")).toHaveLength(1);
    expectEveryTranscriptValid(h);
  });

  it("refuses complete from the main agent, and complete without a result inside a child", async () => {
    const h = loopHarness([
      tools(complete("toolu_m", "not mine")),
      tools(delegate("toolu_d", "echo")),
      tools({ id: "toolu_empty", name: "complete", input: {} }),
      tools(complete("toolu_c", "fixed")),
      text("done"),
    ]);
    await h.say("go");
    const data = (id: string) => h.eventsOf("tool_result").find((e) => e.data.toolCallId === id)?.data;
    expect(data("toolu_m")).toMatchObject({
      isError: true,
      content: "The complete tool is only for delegated agents; the main agent answers the person directly.",
    });
    expect(data("toolu_empty")).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^Invalid input for tool "complete": result: /),
    });
    expect(data("toolu_d")).toMatchObject({ isError: false, content: "fixed" });
  });
});
