import { describe, expect, it } from "vitest";
import { promptFor, TERMINAL_PROMPTS } from "../../../../bin/card-prompts";
import guide from "../../../../docs/interactive-tools.md?raw";
import { BUILTIN_INTERACTIONS } from "../../../../src/interactions/kinds";
import { createInteractionRegistry } from "../../../../src/interactions/registry";
import { ratingPrompt } from "../../bin/toy-kind/rating-prompt";
import terminal from "../../bin/toy-kind/rating-prompt.ts?raw";
import renderer from "../../web/toy-kind/rating-card.ts?raw";
import { ratingInteraction } from "./rating";
import server from "./rating.ts?raw";

const registry = createInteractionRegistry([...BUILTIN_INTERACTIONS, ratingInteraction]);

describe("the guide's toy rating kind", () => {
  it("is quoted by docs/interactive-tools.md exactly as it is in the test suite", () => {
    expect(guide).toContain(`\`\`\`ts\n${server}\`\`\``);
    expect(guide).toContain(`\`\`\`ts\n${renderer}\`\`\``);
    expect(guide).toContain(`\`\`\`ts\n${terminal}\`\`\``);
  });

  it("words its card for notifications with its own summary", () => {
    expect(registry.summary("rating", "AskUserRating", { subject: "the plan" })).toEqual({
      title: "The agent asks for a rating",
      line: "Rate the plan from 1 to 5 stars",
    });
  });

  it("words its receipt itself, and the registry sends those words for any device to show", () => {
    expect(registry.receipt("rating", "answered", { stars: 4 })).toBe("Rated ★★★★");
    expect(registry.receipt("rating", "timed_out", null)).toBe("Timed out");
  });

  it("is answered in the terminal through its registered prompt, which refuses what is not 1 to 5", () => {
    const card = { interactionId: "int_r", toolCallId: "toolu_r", kind: "rating", toolName: "AskUserRating" };
    const request = { subject: "the plan" };
    expect(promptFor({ ...card, request })).toBeNull();
    const prompt = promptFor({ ...card, request }, { ...TERMINAL_PROMPTS, rating: ratingPrompt });
    expect(prompt?.start()).toEqual({
      kind: "ask",
      lines: ["★ Rate the plan from 1 to 5 stars"],
      prompt: "stars› ",
    });
    expect(prompt?.input("9")).toEqual({
      kind: "ask",
      lines: ["Type a number from 1 to 5."],
      prompt: "stars› ",
    });
    const reply = prompt?.input(" 4 ");
    expect(reply).toEqual({
      kind: "send",
      command: { type: "respond", interactionId: "int_r", response: { stars: 4 } },
    });
    // What the terminal sends is what the kind reads.
    if (reply?.kind !== "send" || reply.command.type !== "respond") throw new Error("no respond command");
    expect(registry.respond("rating", request, reply.command.response)).toMatchObject({ ok: true });
  });

  it("is offered to the model and announced generically, with no edit to the registry", () => {
    expect(registry.byToolName("AskUserRating")?.kind).toBe("rating");
    expect(registry.toolSpecs().at(-1)?.input_schema).toMatchObject({ required: ["subject"] });
    expect(registry.promptEvent("rating")).toBe("interaction_prompt");
    expect(registry.answerOf({ type: "respond", interactionId: "toolu_r", response: { stars: 2 } })).toEqual({
      interactionId: "toolu_r",
      kind: null,
      response: { stars: 2 },
    });
  });

  it("takes 1 to 5 stars, refuses anything else precisely, and words results", () => {
    const request = { subject: "the plan" };
    expect(registry.respond("rating", request, { stars: 4 })).toMatchObject({
      ok: true,
      outcome: "answered",
      result: { content: "User rated the plan 4/5.", isError: false },
    });
    expect(registry.respond("rating", request, { stars: 6 })).toEqual({
      ok: false,
      message: "stars: give 1 to 5 stars",
    });
    expect(registry.respond("rating", request, { stars: 3, note: "x" })).toMatchObject({ ok: false });
    expect(registry.timeout("rating", request, { timeoutMs: 120_000 }).content).toBe(
      "User did not rate it within 2 minutes",
    );
  });
});
