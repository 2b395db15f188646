// Cancel and "end this agent" on the in-memory stores: unwinding every frame, or popping only the top.
import { describe, expect, it } from "vitest";
import type { ToolResultBlockParam } from "../../../src/model/model-client";
import { MAIN_FRAME_ID } from "../../../src/protocol/session/agents";
import { expectValidTranscript } from "../../helpers/valid-transcript";
import { type LoopHarness, loopHarness, text, tools } from "./loop-harness";

const delegate = (id: string, agent: string) => ({
  id,
  name: "Agent",
  input: { description: `Help from ${agent}`, prompt: "Please help.", subagent_type: agent },
});
const write = { id: "toolu_w", name: "notes_write", input: { key: "k", text: "v" } };

/** main → researcher → writer, with the writer's approval card open. */
async function nestedWithOpenCard(): Promise<LoopHarness> {
  const h = loopHarness([
    tools(delegate("toolu_d1", "researcher")),
    tools({ id: "toolu_t", name: "current_time", input: {} }, delegate("toolu_d2", "writer")),
    tools(write),
    text("after"),
  ]);
  await h.say("go");
  expect(h.stores.frames.stack().map((f) => f.agent)).toEqual(["researcher", "writer"]);
  expect(h.stores.interactions.pending().map((p) => p.toolCallId)).toEqual(["toolu_w"]);
  return h;
}

function lastResults(h: LoopHarness, frameId: string): ToolResultBlockParam[] {
  const last = h.stores.transcript.messagesOf(frameId).at(-1);
  const content = typeof last?.content === "string" ? [] : (last?.content ?? []);
  return content.filter((block): block is ToolResultBlockParam => block.type === "tool_result");
}

describe("cancel with agents on the stack", () => {
  it("unwinds every frame: cards and calls cancelled, each parent's delegation told so, transcripts valid", async () => {
    const h = await nestedWithOpenCard();
    const [researcher, writer] = h.stores.frames.stack();
    expect(h.loop.cancel("laptop")).toBe(true);

    expect(h.stores.frames.stack()).toEqual([]);
    expect(h.stores.interactions.get("toolu_w")).toMatchObject({ status: "cancelled", resolvedBy: "laptop" });
    expect(h.eventsOf("agent_completed").map((e) => [e.data.agent, e.data.outcome])).toEqual([
      ["writer", "cancelled"],
      ["researcher", "cancelled"],
    ]);
    expect(lastResults(h, writer?.frameId ?? "").map((r) => [r.tool_use_id, r.is_error])).toEqual([
      ["toolu_w", true],
    ]);
    expect(lastResults(h, researcher?.frameId ?? "").map((r) => [r.tool_use_id, r.content])).toEqual([
      ["toolu_t", expect.any(String)],
      ["toolu_d2", 'The person cancelled; agent "writer" was stopped before it completed.'],
    ]);
    expect(lastResults(h, MAIN_FRAME_ID).map((r) => r.content)).toEqual([
      'The person cancelled; agent "researcher" was stopped before it completed.',
    ]);
    for (const frameId of [MAIN_FRAME_ID, researcher?.frameId, writer?.frameId]) {
      expectValidTranscript(h.stores.transcript.messagesOf(frameId ?? ""));
    }
    expect(h.eventsOf("done").at(-1)?.data.stopReason).toBe("cancelled");
    expect(h.stores.turn.status()).toBe("idle");
    expect(h.model.requests).toHaveLength(3);
  });

  it("unwinds a stack whose child is waiting for the person, with no turn running", async () => {
    const h = loopHarness([tools(delegate("toolu_d", "researcher")), text("What do you need?")]);
    await h.say("go");
    expect(h.stores.turn.current()).toBeNull();
    expect(h.loop.cancel(null)).toBe(true);
    expect(h.stores.frames.stack()).toEqual([]);
    expectValidTranscript(h.stores.transcript.messagesOf(MAIN_FRAME_ID));
    expect(h.loop.cancel(null)).toBe(false);
  });
});

describe("ending the top agent", () => {
  it("pops only the top agent; its parent gets a result saying the person ended it, and resumes at once", async () => {
    const h = await nestedWithOpenCard();
    const ended = h.loop.endAgent("phone");
    expect(ended?.agent).toBe("writer");
    await h.loop.advance();

    expect(h.stores.interactions.get("toolu_w")?.status).toBe("cancelled");
    expect(h.eventsOf("agent_completed").map((e) => [e.data.agent, e.data.outcome, e.data.result])).toEqual([
      [
        "writer",
        "ended",
        'The person ended the conversation with agent "writer" before it called complete; it returned no result.',
      ],
    ]);
    expect(h.stores.frames.stack().map((f) => f.agent)).toEqual(["researcher"]);
    const resumed = h.model.requests[3];
    const last = resumed?.messages.at(-1);
    expect(JSON.stringify(last)).toContain("The person ended the conversation with agent");
    expect(resumed?.tools.map((t) => t.name)).toContain("complete");
  });

  it("starts a turn for the parent when the ended agent was waiting for the person", async () => {
    const h = loopHarness([
      tools(delegate("toolu_d", "researcher")),
      text("What do you need?"),
      text("Fine, I'll answer myself."),
    ]);
    await h.say("go");
    expect(h.loop.endAgent(null)?.agent).toBe("researcher");
    await h.loop.advance();
    expect(h.eventsOf("turn_started")).toHaveLength(2);
    expect(h.eventsOf("done")).toHaveLength(2);
    expect(h.stores.frames.stack()).toEqual([]);
    expectValidTranscript(h.stores.transcript.messagesOf(MAIN_FRAME_ID));
  });

  it("does nothing when the main agent holds the conversation", async () => {
    const h = loopHarness([text("hi")]);
    await h.say("go");
    const before = structuredClone(h.stores.events.events);
    expect(h.loop.endAgent(null)).toBeNull();
    expect(h.stores.events.events).toEqual(before);
  });
});

describe("an internal failure inside a subagent", () => {
  it("fails the turn and cleans up the whole stack, so the next message goes to the main agent", async () => {
    const h = loopHarness([tools(delegate("toolu_d", "researcher")), text("Main again.")], {
      extend: (deps) => ({
        ...deps,
        frames: {
          stack: () => deps.frames.stack(),
          top: () => deps.frames.top(),
          get: (id) => deps.frames.get(id),
          push: (frame) => deps.frames.push(frame),
          end: (id, outcome, at) => deps.frames.end(id, outcome, at),
          countModelCall: () => {
            throw new Error("disk on fire");
          },
        },
      }),
    });
    await h.say("go");
    expect(h.stores.turn.status()).toBe("failed");
    expect(h.eventsOf("agent_completed").map((e) => [e.data.outcome, e.data.result])).toEqual([
      ["failed", 'Agent "researcher" was stopped by an internal error before it completed.'],
    ]);
    expect(h.stores.frames.stack()).toEqual([]);
    expectValidTranscript(h.stores.transcript.messagesOf(MAIN_FRAME_ID));
  });
});

describe("a subagent whose definition was removed by a deploy", () => {
  it("is popped with an is_error result when it would next call the model, and its parent carries on", async () => {
    const h = loopHarness([
      tools(delegate("toolu_d", "researcher")),
      text("What do you need?"),
      text("Main again."),
    ]);
    await h.say("go");
    h.deps.agents = { get: () => undefined, all: () => [] };
    await h.say("more");
    expect(h.eventsOf("agent_completed").map((e) => [e.data.outcome, e.data.result])).toEqual([
      ["failed", 'Agent "researcher" is no longer defined, so it could not continue.'],
    ]);
    expect(h.model.requests).toHaveLength(3);
    expect(h.model.requests[2]?.messages.at(-1)?.content).toEqual([
      expect.objectContaining({ tool_use_id: "toolu_d", is_error: true }),
    ]);
  });
});
