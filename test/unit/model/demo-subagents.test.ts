// The demo model's subagent tour, played through the real loop with the agents shipped in agents/.
import { describe, expect, it } from "vitest";
import { answerInteraction } from "../../../src/agent/resolve-interaction";
import { BUNDLED_AGENT_FILES } from "../../../src/agent-definitions/bundled-agents";
import { createDemoModel } from "../../../src/model/demo-script";
import { DEMO_RESEARCH_QUESTION, demoFrameOf } from "../../../src/model/demo-subagents";
import { expectValidTranscript } from "../../helpers/valid-transcript";
import { loopHarness } from "../agent/loop-harness";
import { request } from "./assemble-events";

function demoHarness() {
  return loopHarness([], { agents: [...BUNDLED_AGENT_FILES], model: createDemoModel() });
}

function spoken(h: ReturnType<typeof demoHarness>): string {
  return h
    .eventsOf("text_delta")
    .map((e) => e.data.text)
    .join("");
}

describe("the demo model's subagent tour", () => {
  it("knows a delegated agent by its name, whatever its prompt says", () => {
    const asked = (agent: string | undefined, prompt: string) => ({
      ...request({ system: [{ type: "text" as const, text: prompt }] }),
      ...(agent ? { agent } : {}),
    });
    expect(demoFrameOf(asked("researcher", "A reworded prompt."))).toBe("researcher");
    expect(demoFrameOf(asked("note-keeper", "Anything."))).toBe("note-keeper");
    expect(demoFrameOf(asked(undefined, "You are a careful researcher."))).toBeNull();
    expect(demoFrameOf(asked("someone-else", "You keep the notes."))).toBeNull();
  });

  it("hands a research request to the researcher, which asks, talks, delegates a note and reports back", async () => {
    const h = demoHarness();
    await h.say("please research durable objects");
    expect(h.eventsOf("agent_started").map((e) => e.data.agent)).toEqual(["researcher"]);
    const [question] = h.stores.interactions.pending();
    expect(question?.request).toEqual({ questions: [DEMO_RESEARCH_QUESTION] });

    const answers = { [DEMO_RESEARCH_QUESTION.question]: "Overview" };
    expect(
      answerInteraction(h.deps, {
        interactionId: question?.toolCallId ?? "",
        kind: "question",
        response: { answers },
        deviceId: "phone",
      }).ok,
    ).toBe(true);
    await h.loop.advance();
    expect(h.stores.turn.status()).toBe("idle");
    expect(spoken(h)).toContain("You're talking to me, the researcher, now");

    await h.say("It runs on the edge");
    expect(h.stores.frames.stack().map((f) => f.agent)).toEqual(["researcher", "note-keeper"]);
    const [approval] = h.stores.interactions.pending();
    expect(approval).toMatchObject({ kind: "approval", toolName: "notes_write" });
    answerInteraction(h.deps, {
      interactionId: approval?.toolCallId ?? "",
      kind: "approval",
      response: { decision: "approve" },
      deviceId: "laptop",
    });
    await h.loop.advance();

    expect(h.notes.get("research")?.text).toBe("Focus: Overview. The person said: “It runs on the edge”.");
    expect(h.eventsOf("agent_completed").map((e) => [e.data.agent, e.data.outcome])).toEqual([
      ["note-keeper", "completed"],
      ["researcher", "completed"],
    ]);
    expect(spoken(h)).toContain("The researcher reported back: “Focus: Overview.");
    expect(h.stores.frames.stack()).toEqual([]);
    expect(h.stores.turn.status()).toBe("idle");
    expectValidTranscript(h.stores.transcript.messages());
  });

  it("carries on when the person ends the researcher, and still offers the classic tour otherwise", async () => {
    const h = demoHarness();
    await h.say("research something");
    answerInteraction(h.deps, {
      interactionId: h.stores.interactions.pending()[0]?.toolCallId ?? "",
      kind: "question",
      response: { answers: { [DEMO_RESEARCH_QUESTION.question]: "Details" } },
      deviceId: null,
    });
    await h.loop.advance();
    h.loop.endAgent(null);
    await h.loop.advance();
    expect(spoken(h)).toContain("The researcher did not finish");
    await h.say("hello");
    expect(
      h
        .eventsOf("tool_call_end")
        .slice(-2)
        .map((e) => e.data.name),
    ).toEqual(["current_time", "AskUserQuestion"]);
  });
});
