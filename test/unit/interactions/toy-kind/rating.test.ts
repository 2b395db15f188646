import { describe, expect, it } from "vitest";
import guide from "../../../../docs/interactive-tools.md?raw";
import { BUILTIN_INTERACTIONS } from "../../../../src/interactions/kinds";
import { createInteractionRegistry } from "../../../../src/interactions/registry";
import renderer from "../../web/toy-kind/rating-card.ts?raw";
import { ratingInteraction } from "./rating";
import server from "./rating.ts?raw";

const registry = createInteractionRegistry([...BUILTIN_INTERACTIONS, ratingInteraction]);

describe("the guide's toy rating kind", () => {
  it("is quoted by docs/interactive-tools.md exactly as it is in the test suite", () => {
    expect(guide).toContain(`\`\`\`ts\n${server}\`\`\``);
    expect(guide).toContain(`\`\`\`ts\n${renderer}\`\`\``);
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
