// A delegation beside calls that wait for a person: the child starts at once while its siblings'
// cards stay open, and the parent's barrier still holds its next model call until every call of
// its message has a result. Each interleaving of the child and the sibling card, on memory stores.
import { describe, expect, it } from "vitest";
import { decideBatch } from "../../../src/agent/batch-decision";
import { answerInteraction, chatAnswersACard, timeOutDue } from "../../../src/agent/resolve-interaction";
import type { MessageParam, ToolResultBlockParam } from "../../../src/model/model-client";
import type { ScriptedReply } from "../../../src/model/scripted-reply";
import { MAIN_FRAME_ID } from "../../../src/protocol/session/agents";
import { expectValidTranscript } from "../../helpers/valid-transcript";
import { type LoopHarness, loopHarness, text, tools } from "./loop-harness";

const delegate = (id: string, agent: string) => ({
  id,
  name: "Agent",
  input: { description: `Help from ${agent}`, prompt: "Please help.", subagent_type: agent },
});
const complete = (id: string, result: string) => ({ id, name: "complete", input: { result } });
const write = (id: string, key = "k") => ({ id, name: "notes_write", input: { key, text: "v" } });
const ask = (id: string, question: string) => ({
  id,
  name: "AskUserQuestion",
  input: {
    questions: [
      {
        question,
        header: "Pick",
        multiSelect: false,
        options: [
          { label: "A", description: "a" },
          { label: "B", description: "b" },
        ],
      },
    ],
  },
});

function resultsIn(message: MessageParam | undefined): ToolResultBlockParam[] {
  const content = typeof message?.content === "string" ? [] : (message?.content ?? []);
  return content.filter((block): block is ToolResultBlockParam => block.type === "tool_result");
}

function expectEveryTranscriptValid(h: LoopHarness): void {
  for (const frameId of [MAIN_FRAME_ID, ...h.eventsOf("agent_started").map((e) => e.data.frameId)]) {
    expectValidTranscript(h.stores.transcript.messagesOf(frameId));
  }
}

/** main calls notes_write (an approval card) and delegates to `agent` in one message. */
async function cardBesideChild(agent: string, child: ScriptedReply[], after: ScriptedReply[] = []) {
  const h = loopHarness([tools(write("toolu_w"), delegate("toolu_d", agent)), ...child, ...after]);
  await h.say("go");
  return h;
}

describe("a delegation beside a sibling's open card", () => {
  it("starts the child's first model call at once, without waiting for the sibling's approval", async () => {
    const h = await cardBesideChild("researcher", [text("Which version?")]);
    expect(h.model.requests).toHaveLength(2);
    expect(h.model.requests[1]?.system?.[0]?.text).toMatch(/^You are researcher\./);
    expect(h.stores.interactions.pending().map((p) => [p.toolCallId, p.frameId])).toEqual([
      ["toolu_w", MAIN_FRAME_ID],
    ]);
    const order = h.stores.events.events.map((e) => e.type).filter((t) => t !== "session_status");
    expect(order.indexOf("approval_required")).toBeLessThan(order.indexOf("agent_started"));
    // The child asked the person in text: its turn ends, and the next message is the child's.
    expect(h.eventsOf("done")).toHaveLength(1);
    expect(h.stores.turn.status()).toBe("idle");
    expect(h.stores.frames.top()?.agent).toBe("researcher");
    // A chat message goes to the top agent: the parent's card does not read it.
    expect(chatAnswersACard(h.deps)).toBe(false);
  });

  it("records the sibling's answer while the child runs, and the parent's next call carries every result in order", async () => {
    const h = await cardBesideChild(
      "researcher",
      [text("Which version?"), tools(complete("toolu_c", "3.13 it is"))],
      [text("Noted, and the researcher says 3.13.")],
    );
    const approved = answerInteraction(h.deps, {
      interactionId: "toolu_w",
      kind: "approval",
      response: { decision: "approve" },
      deviceId: "laptop",
    });
    expect(approved.ok && approved.resolution).toMatchObject({ outcome: "approved", frameId: MAIN_FRAME_ID });
    await h.loop.advance();
    // Approved while its agent is not on top: it runs when main resumes, before main's next call.
    expect(h.notes.get("k")).toBeNull();
    expect(h.model.requests).toHaveLength(2);

    await h.say("3.13");
    expect(JSON.stringify(h.model.requests[2]?.messages.at(-1))).toContain("3.13");
    expect(h.notes.get("k")?.text).toBe("v");
    const main = h.model.requests[3];
    expect(resultsIn(main?.messages.at(-1)).map((r) => [r.tool_use_id, r.content])).toEqual([
      ["toolu_w", expect.stringContaining("k")],
      ["toolu_d", "3.13 it is"],
    ]);
    expect(h.stores.turn.status()).toBe("idle");
    expectEveryTranscriptValid(h);
  });

  it("holds the parent when the child completes first, and resumes it when the sibling is answered", async () => {
    const h = loopHarness([
      tools(ask("toolu_q", "Which one?"), delegate("toolu_d", "echo")),
      tools(complete("toolu_c", "echoed")),
      text("Both in."),
    ]);
    await h.say("go");
    expect(h.eventsOf("agent_completed").map((e) => e.data.outcome)).toEqual(["completed"]);
    expect(h.stores.frames.stack()).toEqual([]);
    expect(h.model.requests).toHaveLength(2);
    expect(h.stores.turn.status()).toBe("awaiting_input");
    // main is on top again, so its own question reads the next chat message.
    expect(chatAnswersACard(h.deps)).toBe(true);

    answerInteraction(h.deps, {
      interactionId: "toolu_q",
      kind: "question",
      response: { answers: { "Which one?": "B" } },
      deviceId: "phone",
    });
    await h.loop.advance();
    expect(resultsIn(h.model.requests[2]?.messages.at(-1)).map((r) => r.tool_use_id)).toEqual([
      "toolu_q",
      "toolu_d",
    ]);
    expect(h.eventsOf("done")).toHaveLength(1);
    expectEveryTranscriptValid(h);
  });

  it("times out the sibling's card by the alarm while the child waits on its own question", async () => {
    const h = await cardBesideChild(
      "researcher",
      [
        text("Let me ask properly."),
        tools(ask("toolu_q", "Which version?")),
        tools(complete("toolu_c", "B")),
      ],
      [text("The approval lapsed; the researcher chose B.")],
    );
    h.clock.now += 30_000;
    await h.say("ok");
    expect(h.stores.interactions.pending().map((p) => [p.toolCallId, p.frameId])).toEqual([
      ["toolu_w", MAIN_FRAME_ID],
      ["toolu_q", h.stores.frames.top()?.frameId],
    ]);
    h.clock.now += 30_000; // toolu_w's deadline; toolu_q has half its time left
    expect(timeOutDue(h.deps, h.clock.now)).toBe(1);
    await h.loop.advance();
    expect(h.stores.turn.status()).toBe("awaiting_input");
    expect(h.stores.interactions.pending().map((p) => p.toolCallId)).toEqual(["toolu_q"]);
    expect(h.eventsOf("tool_result").at(-1)?.data).toMatchObject({
      toolCallId: "toolu_w",
      isError: true,
      frameId: MAIN_FRAME_ID,
      depth: 0,
    });
    expect(h.model.requests).toHaveLength(3);

    answerInteraction(h.deps, {
      interactionId: "toolu_q",
      kind: "question",
      response: { answers: { "Which version?": "B" } },
      deviceId: "phone",
    });
    await h.loop.advance();
    expect(h.notes.get("k")).toBeNull();
    const main = h.model.requests[4];
    expect(resultsIn(main?.messages.at(-1)).map((r) => [r.tool_use_id, r.is_error ?? false])).toEqual([
      ["toolu_w", true],
      ["toolu_d", false],
    ]);
    expectEveryTranscriptValid(h);
  });

  it("cancel unwinds the child and closes the parent's open card: every call gets one cancelled result", async () => {
    const h = await cardBesideChild(
      "researcher",
      [tools(ask("toolu_q", "Which version?"))],
      [text("Again.")],
    );
    expect(h.stores.interactions.pending()).toHaveLength(2);
    expect(h.loop.cancel("laptop")).toBe(true);
    expect(h.stores.interactions.pending()).toEqual([]);
    expect(h.eventsOf("interaction_resolved").map((e) => [e.data.toolCallId, e.data.outcome])).toEqual([
      ["toolu_w", "cancelled"],
      ["toolu_q", "cancelled"],
    ]);
    expect(resultsIn(h.stores.transcript.messagesOf(MAIN_FRAME_ID).at(-1)).map((r) => r.tool_use_id)).toEqual(
      ["toolu_w", "toolu_d"],
    );
    expect(h.eventsOf("agent_completed").map((e) => e.data.outcome)).toEqual(["cancelled"]);
    expect(h.stores.turn.status()).toBe("idle");
    expectEveryTranscriptValid(h);
    await h.say("hello again");
    expectValidTranscript(h.model.requests.at(-1)?.messages ?? []);
  });

  it("ends only the child: the parent's card stays open, and answering it resumes the parent", async () => {
    const h = await cardBesideChild("researcher", [text("Which version?")], [text("I will do it myself.")]);
    expect(h.loop.endAgent("phone")?.agent).toBe("researcher");
    await h.loop.advance();
    expect(h.stores.interactions.get("toolu_w")?.status).toBe("pending");
    expect(h.stores.turn.status()).toBe("awaiting_input");
    expect(h.model.requests).toHaveLength(2);
    answerInteraction(h.deps, {
      interactionId: "toolu_w",
      kind: "approval",
      response: { decision: "deny" },
      deviceId: "phone",
    });
    await h.loop.advance();
    expect(resultsIn(h.model.requests[2]?.messages.at(-1)).map((r) => [r.tool_use_id, r.is_error])).toEqual([
      ["toolu_w", true],
      ["toolu_d", true],
    ]);
    expectEveryTranscriptValid(h);
  });

  it("decides the parent's cards as one batch while the child holds the conversation", async () => {
    const h = loopHarness([
      tools(write("toolu_w1", "a"), write("toolu_w2", "b"), delegate("toolu_d", "echo")),
      text("Hello from echo."),
      tools(complete("toolu_c", "echoed")),
      text("Both written."),
    ]);
    await h.say("go");
    expect(h.stores.frames.top()?.agent).toBe("echo");
    const decided = decideBatch(
      h.deps,
      { toolCallIds: ["toolu_w1", "toolu_w2"], decision: "approve" },
      "laptop",
    );
    expect(decided.ok && decided.outcome.decided.map((r) => r.toolCallId)).toEqual(["toolu_w1", "toolu_w2"]);
    await h.say("finish");
    expect([h.notes.get("a")?.text, h.notes.get("b")?.text]).toEqual(["v", "v"]);
    expect(resultsIn(h.model.requests.at(-1)?.messages.at(-1)).map((r) => r.tool_use_id)).toEqual([
      "toolu_w1",
      "toolu_w2",
      "toolu_d",
    ]);
  });

  it("marks every event with the agent that produced it", async () => {
    const h = await cardBesideChild("researcher", [tools(ask("toolu_q", "Which version?"))]);
    const child = h.stores.frames.top();
    const mark = { frameId: child?.frameId, agent: "researcher", depth: 1 };
    const main = { frameId: MAIN_FRAME_ID, agent: "main", depth: 0 };
    const of = (type: "tool_call_start" | "tool_call_end", id: string) =>
      h.eventsOf(type).find((e) => e.data.toolCallId === id)?.data;
    expect(of("tool_call_start", "toolu_w")).toMatchObject(main);
    expect(of("tool_call_end", "toolu_q")).toMatchObject(mark);
    expect(h.eventsOf("approval_required")[0]?.data).toMatchObject(main);
    expect(h.eventsOf("question_prompt")[0]?.data).toMatchObject(mark);
    expect(h.eventsOf("turn_started")[0]?.data).toMatchObject(main);
    answerInteraction(h.deps, {
      interactionId: "toolu_w",
      kind: "approval",
      response: { decision: "deny" },
      deviceId: "phone",
    });
    expect(h.eventsOf("interaction_resolved")[0]?.data).toMatchObject(main);
    expect(h.eventsOf("tool_result").at(-1)?.data).toMatchObject({ toolCallId: "toolu_w", ...main });
  });
});
