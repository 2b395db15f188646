// The guide's toy kind, run through the real loop, stores and command handler in a Durable Object,
// registered only in this test: adding a kind needs no edit to any of them.

import { describe, expect, it } from "vitest";
import { AgentLoop } from "../../../src/agent/agent-loop";
import { createAgentRegistry } from "../../../src/agent-definitions/agent-registry";
import { BUILTIN_INTERACTIONS } from "../../../src/interactions/kinds";
import { createInteractionRegistry } from "../../../src/interactions/registry";
import { ScriptedModelClient } from "../../../src/model/scripted-client";
import { executeCommand } from "../../../src/session/command-handler";
import type { SessionObject } from "../../../src/session/session-object";
import { SessionState } from "../../../src/session/session-state";
import { BUILTIN_TOOLS } from "../../../src/tools/builtin";
import { createToolRegistry } from "../../../src/tools/registry";
import { runInDurableObject } from "../../helpers/run-in-object";
import { createSession } from "../../helpers/session-harness";
import { ratingInteraction } from "../../unit/interactions/toy-kind/rating";
import { stubOf } from "./interaction-fixtures";

describe("a kind added by its own files alone", () => {
  it("is offered to the model, announced, answered with respond, and its result reaches the model", async () => {
    const session = await createSession();
    const outcome = await runInDurableObject(stubOf(session), async (_instance: SessionObject, state) => {
      const frames: string[] = [];
      const wakers: Array<() => void> = [];
      const store = new SessionState(state.storage, (frame) => {
        frames.push(frame);
        for (const wake of wakers.splice(0)) wake();
        return 1;
      });
      const model = new ScriptedModelClient(
        [
          {
            content: [
              { type: "tool_use", id: "toolu_rate", name: "AskUserRating", input: { subject: "the plan" } },
            ],
          },
          { content: [{ type: "text", text: "Thanks for the rating." }] },
        ],
        { record: true },
      );
      const deps = store.agentDeps({
        model,
        tools: createToolRegistry(BUILTIN_TOOLS),
        kinds: createInteractionRegistry([...BUILTIN_INTERACTIONS, ratingInteraction]),
        agents: createAgentRegistry([], []),
        settings: {
          model: "scripted",
          maxTokens: 100,
          interactionTimeoutMs: 60_000,
          maxTurnIterations: 5,
          watchdogMs: 60_000,
          maxFormsPerToolCall: 5,
          maxAgentDepth: 4,
        },
      });
      const loop = new AgentLoop(deps);
      const context = { deps, loop, sentMessages: store.sentMessages };
      // Commands wake the loop without waiting for it, as for a device; each step it takes is
      // broadcast, so wait for the frame after which it stops, and fail if it never comes.
      const until = async (done: () => boolean, what: string) => {
        const deadline = Date.now() + 5_000;
        while (!done()) {
          if (Date.now() > deadline) throw new Error(`the loop never reached ${what}`);
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`the loop went quiet before ${what}`)), 5_000);
            wakers.push(() => {
              clearTimeout(timer);
              resolve();
            });
          });
        }
      };
      executeCommand(context, { type: "send_message", text: "Rate my plan" }, "laptop");
      await until(() => store.turn.status() === "awaiting_input", "the rating card");
      const paused = store.turn.status();
      const refused = executeCommand(
        context,
        { type: "respond", toolCallId: "toolu_rate", response: { stars: 9 } },
        "laptop",
      );
      const answered = executeCommand(
        context,
        { type: "respond", interactionId: "toolu_rate", response: { stars: 4 } },
        "laptop",
      );
      await until(() => store.turn.current() === null, "the end of the turn");
      const events = frames.map(
        (frame) => JSON.parse(frame) as { type: string; data: Record<string, unknown> },
      );
      return { paused, refused, answered, events, requests: model.requests };
    });

    expect(outcome.requests[0]?.tools.map((tool) => tool.name)).toContain("AskUserRating");
    expect(outcome.paused).toBe("awaiting_input");
    expect(outcome.events.find((e) => e.type === "interaction_prompt")?.data).toMatchObject({
      kind: "rating",
      interactionId: "toolu_rate",
      request: { subject: "the plan" },
    });
    expect(outcome.refused).toMatchObject({
      ok: false,
      error: { code: "invalid_answer", message: "stars: give 1 to 5 stars" },
    });
    expect(outcome.answered).toMatchObject({ ok: true, result: { kind: "rating", outcome: "answered" } });
    // Every device's receipt opens with the kind's own words, sent with the resolution.
    expect(outcome.events.find((e) => e.type === "interaction_resolved")?.data).toMatchObject({
      kind: "rating",
      receipt: "Rated ★★★★",
    });
    const lastMessage = outcome.requests[1]?.messages.at(-1);
    expect(lastMessage?.content).toEqual([
      expect.objectContaining({
        type: "tool_result",
        tool_use_id: "toolu_rate",
        content: "User rated the plan 4/5.",
      }),
    ]);
    expect(outcome.events.some((e) => e.type === "done")).toBe(true);
  });
});
