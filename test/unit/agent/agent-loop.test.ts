// AgentLoop on the in-memory stores: whole turns, pauses and answers, without the Workers runtime.
import { describe, expect, it } from "vitest";
import { answerInteraction } from "../../../src/agent/resolve-interaction";
import { loopHarness, text, tools } from "./loop-harness";

describe("the agent loop on in-memory stores", () => {
  it("runs a tool round-trip and ends the turn with the model's answer", async () => {
    const h = loopHarness([tools({ id: "toolu_t", name: "current_time", input: {} }), text("It is noon.")]);
    await h.say("what time is it?");
    expect(h.stores.turn.status()).toBe("idle");
    expect(h.eventsOf("done").map((e) => e.data.stopReason)).toEqual(["end_turn"]);
    const messages = h.stores.transcript.messages();
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(h.model.requests[1]?.messages[2]?.content).toEqual([
      expect.objectContaining({ type: "tool_result", tool_use_id: "toolu_t" }),
    ]);
  });

  it("pauses for an approval with nothing running, and resumes when it is answered", async () => {
    const h = loopHarness([
      tools({ id: "toolu_w", name: "notes_write", input: { key: "k", text: "v" } }),
      text("Saved."),
    ]);
    await h.say("save a note");
    expect(h.stores.turn.status()).toBe("awaiting_input");
    expect(h.stores.interactions.pending().map((p) => p.toolCallId)).toEqual(["toolu_w"]);
    expect(h.model.requests).toHaveLength(1);

    const answer = answerInteraction(h.deps, {
      interactionId: "toolu_w",
      kind: "approval",
      response: { decision: "approve" },
      deviceId: "phone",
    });
    expect(answer.ok).toBe(true);
    await h.loop.advance();
    expect(h.notes.get("k")?.text).toBe("v");
    expect(h.stores.turn.status()).toBe("idle");
    expect(h.model.requests).toHaveLength(2);
  });

  it("tells devices which open cards a chat message answers, so the page keeps its message box open", async () => {
    const ask = {
      questions: [
        {
          question: "Which?",
          header: "Pick",
          multiSelect: false,
          options: [
            { label: "A", description: "a" },
            { label: "B", description: "b" },
          ],
        },
      ],
    };
    const h = loopHarness([
      tools(
        { id: "toolu_q", name: "AskUserQuestion", input: ask },
        { id: "toolu_w", name: "notes_write", input: { key: "k", text: "v" } },
      ),
    ]);
    await h.say("ask me");
    const prompts = h.stores.events.events.filter(
      (e) => e.type === "question_prompt" || e.type === "approval_required",
    );
    expect(prompts.map((e) => [e.type, (e.data as { readsChat?: true }).readsChat])).toEqual([
      ["question_prompt", true],
      ["approval_required", undefined],
    ]);
  });

  it("sends every device the kind's words for how a card ended, with the resolution", async () => {
    const h = loopHarness([tools({ id: "toolu_w", name: "notes_write", input: { key: "k", text: "v" } })]);
    await h.say("save a note");
    answerInteraction(h.deps, {
      interactionId: "toolu_w",
      kind: "approval",
      response: { decision: "deny", reason: "not now" },
      deviceId: "phone",
    });
    expect(h.eventsOf("interaction_resolved").map((e) => e.data.receipt)).toEqual(["Denied: “not now”"]);
    // A second answer loses, and is told how the card ended in the same words.
    const late = answerInteraction(h.deps, {
      interactionId: "toolu_w",
      kind: "approval",
      response: { decision: "approve" },
      deviceId: "laptop",
    });
    expect(late.ok ? null : late.error.resolution).toMatchObject({ receipt: "Denied: “not now”" });
  });

  it("moves the watchdog once when an answer resumes the turn, not again on each pass through the loop", async () => {
    const moves: Array<number | null> = [];
    const h = loopHarness(
      [tools({ id: "toolu_w", name: "notes_write", input: { key: "k", text: "v" } }), text("Saved.")],
      {
        extend: (deps) => ({
          ...deps,
          deadlines: {
            watchdog: () => deps.deadlines.watchdog(),
            rearm: () => deps.deadlines.rearm(),
            setStreaming: (streaming) => deps.deadlines.setStreaming(streaming),
            setWatchdog: (at) => {
              moves.push(at);
              deps.deadlines.setWatchdog(at);
            },
          },
        }),
      },
    );
    await h.say("save a note");
    moves.length = 0;
    h.clock.now += 5_000;
    expect(
      answerInteraction(h.deps, {
        interactionId: "toolu_w",
        kind: "approval",
        response: { decision: "approve" },
        deviceId: "phone",
      }).ok,
    ).toBe(true);
    await h.loop.advance();
    // The tool ran and the model was called again in passes a moment apart: one move, then the
    // turn's end clears it.
    expect(h.stores.turn.status()).toBe("idle");
    expect(moves).toEqual([h.clock.now + 120_000, null]);
  });
});
