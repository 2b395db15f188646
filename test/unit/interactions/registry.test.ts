import { describe, expect, it } from "vitest";
import * as z from "zod";
import { defineInteraction } from "../../../src/interactions/define-interaction";
import { BUILTIN_INTERACTIONS } from "../../../src/interactions/kinds";
import { PERMISSION_GATE_KIND } from "../../../src/interactions/kinds/names";
import { type AnyInteractionKind, createInteractionRegistry } from "../../../src/interactions/registry";

const registry = createInteractionRegistry(BUILTIN_INTERACTIONS);

function option(label: string) {
  return { label, description: `Choose ${label}` };
}

function question(text: string, overrides: Record<string, unknown> = {}) {
  return {
    question: text,
    header: "Pick",
    options: [option("A"), option("B")],
    multiSelect: false,
    ...overrides,
  };
}

function openMessage(input: unknown): string {
  const opened = registry.open("question", input);
  if (opened.ok) throw new Error("expected the input to be rejected");
  return opened.message;
}

/** A free-text kind, as a project might add one: a single file with no cancel wording of its own. */
const freeText = defineInteraction<{ prompt: string }, { text: string }>({
  kind: "free_text",
  toolName: "AskForText",
  description: "Ask the user to type a short answer.",
  request: z.object({ prompt: z.string().min(1) }),
  parseResponse: (_request, raw) => {
    const parsed = z.object({ text: z.string().min(1) }).safeParse(raw);
    return parsed.success ? { ok: true, response: parsed.data } : { ok: false, message: "text is required" };
  },
  outcome: () => "answered",
  toResult: (_request, response) => ({ content: response.text, isError: false }),
  onTimeout: () => ({ content: "No text arrived", isError: true }),
});

describe("the interaction registry", () => {
  describe("toolSpecs", () => {
    it("offers AskUserQuestion to the model with the Claude Agent SDK's input schema", () => {
      const [spec, ...rest] = registry.toolSpecs();
      expect(rest.map((other) => other.name)).toEqual(["RequestUserInput", "ExitPlanMode"]);
      expect(spec?.name).toBe("AskUserQuestion");
      expect(spec?.description).toContain('"Other"');
      expect(spec?.input_schema).not.toHaveProperty("$schema");
      expect(spec?.input_schema).toMatchObject({
        type: "object",
        required: ["questions"],
        properties: {
          questions: {
            type: "array",
            minItems: 1,
            maxItems: 4,
            items: {
              type: "object",
              required: expect.arrayContaining(["question", "header", "options"]),
              properties: {
                question: { type: "string" },
                header: { type: "string", maxLength: 12 },
                multiSelect: { type: "boolean", default: false },
                options: {
                  type: "array",
                  minItems: 2,
                  maxItems: 4,
                  items: {
                    type: "object",
                    required: ["label", "description"],
                    properties: {
                      label: { type: "string" },
                      description: { type: "string" },
                      preview: { type: "string", maxLength: 8000 },
                    },
                  },
                },
              },
            },
          },
        },
      });
    });

    it("hands out a fresh copy so a caller marking the last tool for caching changes nothing here", () => {
      const first = registry.toolSpecs();
      first[0]!.cache_control = { type: "ephemeral" };
      expect(registry.toolSpecs()[0]).not.toHaveProperty("cache_control");
    });

    it("includes every tool-opened kind and looks each up by its tool name", () => {
      const withFreeText = createInteractionRegistry([
        ...BUILTIN_INTERACTIONS,
        freeText as AnyInteractionKind,
      ]);
      expect(withFreeText.toolSpecs().map((spec) => spec.name)).toEqual([
        "AskUserQuestion",
        "RequestUserInput",
        "ExitPlanMode",
        "AskForText",
      ]);
      expect(withFreeText.byToolName("AskForText")?.kind).toBe("free_text");
      expect(withFreeText.byToolName("fetch_url")).toBeUndefined();
    });
  });

  describe("open", () => {
    it("accepts a well-formed AskUserQuestion input and fills in multiSelect", () => {
      const { multiSelect: _omitted, ...withoutMultiSelect } = question("Which one?");
      const opened = registry.open("question", { questions: [withoutMultiSelect] });
      expect(opened).toMatchObject({ ok: true, request: { questions: [{ multiSelect: false }] } });
    });

    it("rejects more than four questions", () => {
      const questions = ["One?", "Two?", "Three?", "Four?", "Five?"].map((text) => question(text));
      expect(openMessage({ questions })).toBe("questions: ask at most 4 questions at a time");
    });

    it("rejects no questions at all", () => {
      expect(openMessage({ questions: [] })).toBe("questions: ask at least one question");
      expect(openMessage({})).toMatch(/^questions: /);
    });

    it("rejects a header longer than twelve characters, naming where", () => {
      expect(openMessage({ questions: [question("Which one?", { header: "Authentication" })] })).toBe(
        "questions.0.header: header must be at most 12 characters",
      );
    });

    it("rejects a question with fewer than two or more than four options", () => {
      expect(openMessage({ questions: [question("Which one?", { options: [option("A")] })] })).toBe(
        "questions.0.options: give at least 2 options",
      );
      const five = ["A", "B", "C", "D", "E"].map(option);
      expect(openMessage({ questions: [question("Which one?", { options: five })] })).toBe(
        "questions.0.options: give at most 4 options",
      );
    });

    it("rejects repeated labels within a question and repeated questions", () => {
      expect(
        openMessage({ questions: [question("Which one?", { options: [option("A"), option("A ")] })] }),
      ).toBe('questions.0.options: label "A" is used twice');
      expect(openMessage({ questions: [question("Same?"), question("Same?")] })).toBe(
        'questions: question "Same?" is asked twice',
      );
    });

    it("lists every problem in one message", () => {
      const message = openMessage({
        questions: [question("", { header: "A very long header", options: [option("A")] })],
      });
      expect(message).toBe(
        "questions.0.question: question must not be empty; questions.0.header: header must be at most 12 characters; questions.0.options: give at least 2 options",
      );
    });

    it("refuses an unknown kind", () => {
      expect(registry.open("poll", {})).toEqual({ ok: false, message: 'Unknown interaction kind "poll"' });
    });
  });

  describe("respond, timeout and cancelled", () => {
    const request = { questions: [question("Which one?")] };

    it("refuses to answer an unknown kind or a stored request that no longer validates", () => {
      expect(registry.respond("poll", {}, {})).toEqual({
        ok: false,
        message: 'Unknown interaction kind "poll"',
      });
      expect(registry.respond("question", { questions: "garbled" }, { answers: { "0": "A" } })).toEqual({
        ok: false,
        message: "The stored question request is unreadable; it cannot be answered",
      });
    });

    it("still words a timeout and a cancellation for an unknown kind or unreadable request", () => {
      expect(registry.timeout("poll", {}, { timeoutMs: 600_000 })).toEqual({
        content: "User did not respond within 10 minutes",
        isError: true,
      });
      expect(registry.timeout("question", null, { timeoutMs: 2_000 }).content).toBe(
        "User did not respond within 2 seconds",
      );
      expect(registry.cancelled("question", null)).toEqual({
        content: "User cancelled the turn before answering",
        isError: true,
      });
    });

    it("never throws on a timeout, even for a nonsensical duration", () => {
      expect(registry.timeout("question", request, { timeoutMs: Number.NaN })).toEqual({
        content: "User did not respond in time",
        isError: true,
      });
    });

    it("uses a generic cancellation result for a kind with no wording of its own", () => {
      const kinds = createInteractionRegistry([freeText as AnyInteractionKind]);
      expect(kinds.cancelled("free_text", { prompt: "Name?" })).toEqual({
        content: "User cancelled the turn before answering",
        isError: true,
      });
      expect(kinds.respond("free_text", { prompt: "Name?" }, { text: "Ada" })).toEqual({
        ok: true,
        response: { text: "Ada" },
        outcome: "answered",
        result: { content: "Ada", isError: false },
        remember: false,
      });
    });
  });

  describe("creation", () => {
    it("refuses a kind registered twice", () => {
      expect(() => createInteractionRegistry([...BUILTIN_INTERACTIONS, ...BUILTIN_INTERACTIONS])).toThrow(
        'interaction kind "question" is registered twice',
      );
    });

    it("refuses two kinds opened by the same tool", () => {
      const clash = { ...freeText, kind: "other_text", toolName: "AskUserQuestion" } as AnyInteractionKind;
      expect(() => createInteractionRegistry([...BUILTIN_INTERACTIONS, clash])).toThrow(
        'tool "AskUserQuestion" opens two interaction kinds',
      );
    });

    it("refuses a tool-opened kind without a description for the model", () => {
      const silent = { ...freeText, description: undefined } as AnyInteractionKind;
      expect(() => createInteractionRegistry([silent])).toThrow("has no description");
    });
  });

  describe("commands and prompt events", () => {
    it("reads the seed kinds' older commands as the response respond would carry", () => {
      expect(
        registry.answerOf({ type: "submit_answers", toolCallId: "toolu_q", answers: { "Q?": "A" } }),
      ).toEqual({ interactionId: "toolu_q", kind: "question", response: { answers: { "Q?": "A" } } });
      expect(registry.answerOf({ type: "approve", toolCallId: "toolu_a" })).toEqual({
        interactionId: "toolu_a",
        kind: "approval",
        response: { decision: "approve", remember: false },
      });
      expect(registry.answerOf({ type: "deny", toolCallId: "toolu_a", reason: "no" })).toEqual({
        interactionId: "toolu_a",
        kind: "approval",
        response: { decision: "deny", reason: "no" },
      });
    });

    it("lets respond address any kind, by interaction id or by the tool call's own id", () => {
      expect(registry.answerOf({ type: "respond", interactionId: "toolu_x-form-1", response: 1 })).toEqual({
        interactionId: "toolu_x-form-1",
        kind: null,
        response: 1,
      });
      expect(registry.answerOf({ type: "respond", toolCallId: "toolu_x", response: 2 })).toMatchObject({
        interactionId: "toolu_x",
        kind: null,
      });
      expect(registry.answerOf({ type: "cancel" })).toBeNull();
    });

    it("announces the built-in kinds by their seed event names and any other kind generically", () => {
      const withText = createInteractionRegistry([...BUILTIN_INTERACTIONS, freeText]);
      expect(withText.promptEvent("question")).toBe("question_prompt");
      expect(withText.promptEvent("approval")).toBe("approval_required");
      expect(withText.promptEvent("free_text")).toBe("interaction_prompt");
    });

    it("takes a seed kind's older command as unknown where that kind is not registered", () => {
      const textOnly = createInteractionRegistry([freeText]);
      expect(textOnly.answerOf({ type: "approve", toolCallId: "toolu_a" })).toBeNull();
      expect(textOnly.answerOf({ type: "respond", toolCallId: "toolu_a", response: 1 })).not.toBeNull();
    });
  });

  describe("the hooks the loop reads instead of naming a kind", () => {
    const gate = PERMISSION_GATE_KIND;

    it("reads the input a person edited from the gate's stored answer, and none from other kinds or answers", () => {
      expect(
        registry.editedInput(gate, { decision: "approve", remember: false, updatedInput: { a: 1 } }),
      ).toEqual({
        a: 1,
      });
      expect(registry.editedInput(gate, { decision: "approve", remember: false })).toBeNull();
      expect(registry.editedInput(gate, { decision: "deny", reason: null })).toBeNull();
      expect(registry.editedInput(gate, null)).toBeNull();
      expect(registry.editedInput("question", { updatedInput: { a: 1 } })).toBeNull();
      expect(createInteractionRegistry([freeText]).editedInput("free_text", { text: "x" })).toBeNull();
    });

    it("says what one batch decision stands for on a batched kind's card, and nothing for other kinds", () => {
      expect(registry.batchResponse(gate, { decision: "approve", reason: "ignored" })).toEqual({
        decision: "approve",
      });
      expect(registry.batchResponse(gate, { decision: "deny", reason: "no", stop: true })).toEqual({
        decision: "deny",
        reason: "no",
        stop: true,
      });
      expect(registry.batchResponse("question", { decision: "approve" })).toBeNull();
      expect(registry.batchResponse("nope", { decision: "approve" })).toBeNull();
    });

    it("says which answers reach beyond their card, by the kind's own rule, and no answer of a kind without one", () => {
      expect(registry.beyondCard(gate, { decision: "approve", remember: true })).toBe(true);
      expect(registry.beyondCard(gate, { decision: "approve", grant: { rule: "Bash", scope: "all" } })).toBe(
        true,
      );
      expect(
        registry.beyondCard(gate, { decision: "approve", grant: { rule: "Bash", scope: "session" } }),
      ).toBe(false);
      expect(registry.beyondCard(gate, { decision: "approve", remember: false })).toBe(false);
      expect(registry.beyondCard("plan", { choice: "accept_edits" })).toBe(true);
      expect(registry.beyondCard("plan", { choice: "review_each" })).toBe(false);
      // The same shapes mean nothing to a kind that declares no such answer, or to no kind at all.
      expect(registry.beyondCard("question", { remember: true, choice: "accept_edits" })).toBe(false);
      expect(registry.beyondCard("nope", { decision: "approve", remember: true })).toBe(false);
      expect(createInteractionRegistry([freeText]).beyondCard("free_text", { remember: true })).toBe(false);
    });

    it("never lets a batch decision reach beyond the cards it decides", () => {
      for (const decision of ["approve", "deny"] as const) {
        const response = registry.batchResponse(gate, { decision, reason: "r", stop: true });
        expect(registry.beyondCard(gate, response)).toBe(false);
      }
    });

    it("treats a kind whose rule throws as reaching beyond, so only the owner's answer passes", () => {
      const faulty = defineInteraction({
        ...freeText,
        beyondCard: () => {
          throw new Error("broken rule");
        },
      });
      expect(createInteractionRegistry([faulty]).beyondCard("free_text", { text: "x" })).toBe(true);
    });
  });
});
