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

    const answer = answerInteraction(h.deps, "toolu_w", "approval", { decision: "approve" }, "phone");
    expect(answer.ok).toBe(true);
    await h.loop.advance();
    expect(h.notes.get("k")?.text).toBe("v");
    expect(h.stores.turn.status()).toBe("idle");
    expect(h.model.requests).toHaveLength(2);
  });
});
