import { describe, expect, it } from "vitest";
import { BUILTIN_INTERACTIONS, splitJoinedLabels } from "../../../../src/interactions/kinds";
import { createInteractionRegistry } from "../../../../src/interactions/registry";
import { MAX_NOTE_CHARS, MAX_PREVIEW_CHARS, MAX_TEXT_FIELD_CHARS } from "../../../../src/protocol/limits";

const registry = createInteractionRegistry(BUILTIN_INTERACTIONS);

const DATABASE = "Which database should the service use?";
const FEATURES = "Which features should ship first?";

/** An AskUserQuestion input as a model would write it. */
const askInput = {
  questions: [
    {
      question: DATABASE,
      header: "Database",
      options: [
        { label: "Postgres", description: "Relational, battle-tested" },
        { label: "SQLite", description: "One file, no server" },
      ],
      multiSelect: false,
    },
    {
      question: FEATURES,
      header: "Features",
      options: [
        { label: "Search", description: "Full-text search" },
        { label: "Export", description: "CSV and JSON export" },
        { label: "Sharing", description: "Share links" },
      ],
      multiSelect: true,
    },
  ],
};

function openQuestions(input: unknown = askInput): unknown {
  const opened = registry.open("question", input);
  if (!opened.ok) throw new Error(opened.message);
  return opened.request;
}

function answer(answers: Record<string, string | string[]>, request = openQuestions()) {
  return registry.respond("question", request, { answers });
}

function rejection(answers: Record<string, string | string[]>, request = openQuestions()): string {
  const result = answer(answers, request);
  if (result.ok) throw new Error("expected the answers to be rejected");
  return result.message;
}

function accepted(answers: Record<string, string | string[]>, request = openQuestions()) {
  const result = answer(answers, request);
  if (!result.ok) throw new Error(result.message);
  return result;
}

describe("the question kind", () => {
  it("is opened by the model's AskUserQuestion tool", () => {
    expect(registry.byToolName("AskUserQuestion")?.kind).toBe("question");
  });

  describe("answers keyed by question text (SDK form)", () => {
    it("ends as answered and gives the model the Claude Agent SDK's result text", () => {
      const result = accepted({ [DATABASE]: "Postgres", [FEATURES]: ["Search", "Export"] });
      expect(result.outcome).toBe("answered");
      expect(result.result).toEqual({
        content: `User has answered your questions: "${DATABASE}"="Postgres", "${FEATURES}"="Search, Export". You can now continue with the user's answers in mind.`,
        isError: false,
      });
    });

    it("stores the SDK answers record and a structured copy for devices", () => {
      const result = accepted({ [DATABASE]: "Postgres", [FEATURES]: ["Export", "Search"] });
      expect(result.response).toEqual({
        answers: { [DATABASE]: "Postgres", [FEATURES]: "Search, Export" },
        selections: {
          [DATABASE]: { labels: ["Postgres"], other: null },
          [FEATURES]: { labels: ["Search", "Export"], other: null },
        },
      });
    });

    it("words a single question's result with no trailing pair separator", () => {
      const request = openQuestions({ questions: [askInput.questions[0]] });
      expect(accepted({ [DATABASE]: "SQLite" }, request).result?.content).toBe(
        `User has answered your questions: "${DATABASE}"="SQLite". You can now continue with the user's answers in mind.`,
      );
    });
  });

  describe("answers keyed by question index (seed form)", () => {
    it("reads keys 0 and 1 as the first and second question", () => {
      const result = accepted({ "0": "SQLite", "1": ["Sharing"] });
      expect(result.response).toMatchObject({ answers: { [DATABASE]: "SQLite", [FEATURES]: "Sharing" } });
    });

    it("accepts one question by text and the other by index", () => {
      const result = accepted({ [DATABASE]: "SQLite", "1": "Search" });
      expect(result.response).toMatchObject({ answers: { [DATABASE]: "SQLite", [FEATURES]: "Search" } });
    });

    it("rejects a question answered both by text and by index", () => {
      // Integer-like keys come first in a JavaScript object, whatever order the JSON had.
      expect(rejection({ [DATABASE]: "SQLite", "0": "Postgres", "1": "Search" })).toBe(
        `"${DATABASE}" is answered twice (as "0" and as "${DATABASE}")`,
      );
    });

    it("rejects indexes that are out of range or not written canonically", () => {
      expect(rejection({ "0": "SQLite", "1": "Search", "2": "Export" })).toBe(
        'Unknown question key "2" (answers are keyed by question text or by index 0 to 1)',
      );
      expect(rejection({ "00": "SQLite", "1": "Search" })).toContain('Unknown question key "00"');
    });
  });

  describe("validation", () => {
    it("names every unanswered question", () => {
      expect(rejection({})).toBe(`No answer for "${DATABASE}"; no answer for "${FEATURES}"`);
      expect(rejection({ [DATABASE]: "Postgres" })).toBe(`No answer for "${FEATURES}"`);
    });

    it("names unknown keys", () => {
      expect(rejection({ [DATABASE]: "Postgres", [FEATURES]: "Search", colour: "red", size: "L" })).toBe(
        'Unknown question keys "colour", "size" (answers are keyed by question text or by index 0 to 1)',
      );
    });

    it("rejects empty answers, blank strings and empty values in a list", () => {
      expect(rejection({ [DATABASE]: "", [FEATURES]: "Search" })).toBe(
        `The answer to "${DATABASE}" is empty`,
      );
      expect(rejection({ [DATABASE]: "   ", [FEATURES]: "Search" })).toBe(
        `The answer to "${DATABASE}" is empty`,
      );
      expect(rejection({ [DATABASE]: "Postgres", [FEATURES]: [] })).toBe(
        `The answer to "${FEATURES}" is empty`,
      );
      expect(rejection({ [DATABASE]: "Postgres", [FEATURES]: ["Search", " "] })).toBe(
        `The answer to "${FEATURES}" contains an empty value`,
      );
    });

    it("allows exactly one answer to a single-select question", () => {
      expect(rejection({ [DATABASE]: ["Postgres", "SQLite"], [FEATURES]: "Search" })).toBe(
        `"${DATABASE}" takes a single answer, got 2`,
      );
      expect(rejection({ [DATABASE]: ["Postgres", "MySQL"], [FEATURES]: "Search" })).toBe(
        `"${DATABASE}" takes a single answer, got 2`,
      );
      expect(accepted({ [DATABASE]: ["SQLite"], [FEATURES]: "Search" }).response).toMatchObject({
        answers: { [DATABASE]: "SQLite" },
      });
    });

    it("does not read a comma-joined string as several answers to a single-select question", () => {
      const result = accepted({ [DATABASE]: "Postgres, SQLite", [FEATURES]: "Search" });
      expect(result.response).toMatchObject({
        selections: { [DATABASE]: { labels: [], other: "Postgres, SQLite" } },
      });
    });

    it("allows only one free-text value per question", () => {
      expect(rejection({ [DATABASE]: "Postgres", [FEATURES]: ["Search", "Billing", "Audit log"] })).toBe(
        `The answer to "${FEATURES}" has 2 values that are not options ("Billing", "Audit log"); only one free-text "Other" answer is allowed`,
      );
    });

    it("bounds the Other text", () => {
      const long = "x".repeat(MAX_TEXT_FIELD_CHARS + 1);
      expect(rejection({ [DATABASE]: long, [FEATURES]: "Search" })).toBe(
        `The "Other" answer to "${DATABASE}" is longer than ${MAX_TEXT_FIELD_CHARS} characters`,
      );
      const padded = ` ${"x".repeat(MAX_TEXT_FIELD_CHARS)} `;
      expect(answer({ [DATABASE]: padded, [FEATURES]: "Search" }).ok).toBe(true);
    });

    it("lists every problem at once so a device can show them together", () => {
      expect(rejection({ [DATABASE]: "", nope: "x" })).toBe(
        `Unknown question key "nope" (answers are keyed by question text or by index 0 to 1); the answer to "${DATABASE}" is empty; no answer for "${FEATURES}"`,
      );
    });

    it("rejects a body that is not an answers record", () => {
      for (const raw of [null, "Postgres", { answers: ["Postgres"] }, { answers: { "0": 1 } }, {}]) {
        const result = registry.respond("question", openQuestions(), raw);
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.message).toMatch(/^Answers must look like \{ answers: /);
      }
      const extra = registry.respond("question", openQuestions(), {
        answers: { "0": "SQLite", "1": "Search" },
        note: "hi",
      });
      expect(extra.ok).toBe(false);
    });
  });

  describe("the Other free text", () => {
    it("accepts a value that is not a label as the user's own answer, trimmed", () => {
      const result = accepted({ [DATABASE]: "  MySQL, because we already run it  ", [FEATURES]: "Search" });
      expect(result.response).toMatchObject({
        answers: { [DATABASE]: "MySQL, because we already run it" },
        selections: { [DATABASE]: { labels: [], other: "MySQL, because we already run it" } },
      });
      expect(result.result?.content).toContain(`"${DATABASE}"="MySQL, because we already run it"`);
    });

    it("puts the Other text after the chosen labels of a multi-select question", () => {
      const result = accepted({ [DATABASE]: "Postgres", [FEATURES]: ["Audit log", "Sharing", "Search"] });
      expect(result.response).toMatchObject({
        answers: { [FEATURES]: "Search, Sharing, Audit log" },
        selections: { [FEATURES]: { labels: ["Search", "Sharing"], other: "Audit log" } },
      });
    });
  });

  describe("multi-select answers as a joined string", () => {
    it('splits on ", " when every piece is a label, keeping option order', () => {
      const result = accepted({ [DATABASE]: "Postgres", [FEATURES]: "Sharing, Search" });
      expect(result.response).toMatchObject({
        answers: { [FEATURES]: "Search, Sharing" },
        selections: { [FEATURES]: { labels: ["Search", "Sharing"], other: null } },
      });
    });

    it("treats the whole string as Other text when a piece is not a label", () => {
      const result = accepted({ [DATABASE]: "Postgres", [FEATURES]: "Search, and also dark mode" });
      expect(result.response).toMatchObject({
        selections: { [FEATURES]: { labels: [], other: "Search, and also dark mode" } },
      });
    });

    it("matches labels that themselves contain a comma", () => {
      const request = openQuestions({
        questions: [
          {
            question: "Which colours?",
            header: "Colours",
            options: [
              { label: "Red, green", description: "The warm pair" },
              { label: "Blue", description: "Cool" },
              { label: "Red", description: "Just red" },
            ],
            multiSelect: true,
          },
        ],
      });
      expect(accepted({ "0": "Red, green, Blue" }, request).response).toMatchObject({
        selections: { "Which colours?": { labels: ["Red, green", "Blue"], other: null } },
      });
      expect(accepted({ "0": "Blue, Red" }, request).response).toMatchObject({
        selections: { "Which colours?": { labels: ["Blue", "Red"], other: null } },
      });
      expect(accepted({ "0": "Red, green" }, request).response).toMatchObject({
        selections: { "Which colours?": { labels: ["Red, green"], other: null } },
      });
    });
  });

  describe("splitJoinedLabels", () => {
    it("prefers the longer label and backtracks when that leaves a piece unmatched", () => {
      expect(splitJoinedLabels("a, b, c", ["a", "a, b", "b, c"])).toEqual(["a", "b, c"]);
      expect(splitJoinedLabels("a, b", ["a", "b", "a, b"])).toEqual(["a, b"]);
      expect(splitJoinedLabels("a, x", ["a", "b"])).toBeNull();
      expect(splitJoinedLabels("a,b", ["a", "b"])).toBeNull();
    });

    it("stays fast on long text that is mostly separators", () => {
      const text = Array.from({ length: 1_300 }, () => "a").join(", ");
      expect(splitJoinedLabels(`${text}, z`, ["a", "a, a", "a, a, a"])).toBeNull();
    });
  });

  describe("timeouts and cancellation", () => {
    it("tells the model the user did not respond within the configured time", () => {
      const request = openQuestions();
      expect(registry.timeout("question", request, { timeoutMs: 600_000 })).toEqual({
        content: "User did not respond within 10 minutes",
        isError: true,
      });
      expect(registry.timeout("question", request, { timeoutMs: 2_000 }).content).toBe(
        "User did not respond within 2 seconds",
      );
    });

    it("tells the model the turn was cancelled before the questions were answered", () => {
      expect(registry.cancelled("question", openQuestions())).toEqual({
        content: "User cancelled the turn before answering the questions",
        isError: true,
      });
    });
  });

  describe("notes, previews and replies in chat (the SDK's annotations)", () => {
    const withPreview = {
      questions: [
        {
          ...askInput.questions[0]!,
          options: [
            { label: "Postgres", description: "Relational", preview: "```sql\nCREATE TABLE t ();\n```" },
            { label: "SQLite", description: "One file" },
          ],
        },
      ],
    };

    it("keeps a note and the chosen option's preview, and tells the model the note", () => {
      const answered = registry.respond("question", openQuestions(withPreview), {
        answers: { "0": "Postgres" },
        annotations: { [DATABASE]: { notes: "  with read replicas  " } },
      });
      expect(answered).toMatchObject({
        ok: true,
        response: {
          annotations: {
            [DATABASE]: { notes: "with read replicas", preview: "```sql\nCREATE TABLE t ();\n```" },
          },
        },
        result: {
          content: `User has answered your questions: "${DATABASE}"="Postgres" user notes: with read replicas. You can now continue with the user's answers in mind.`,
          isError: false,
        },
      });
    });

    it("refuses a note on an unknown question and a note past the limit", () => {
      const request = openQuestions(withPreview);
      expect(
        registry.respond("question", request, {
          answers: { "0": "SQLite" },
          annotations: { "7": { notes: "x" } },
        }),
      ).toEqual({ ok: false, message: 'A note names unknown question "7"' });
      expect(
        registry.respond("question", request, {
          answers: { "0": "SQLite" },
          annotations: { "0": { notes: "x".repeat(MAX_NOTE_CHARS + 1) } },
        }),
      ).toEqual({
        ok: false,
        message: `The note on "${DATABASE}" is longer than ${MAX_NOTE_CHARS} characters`,
      });
    });

    it("refuses a preview past its limit when the model opens the card", () => {
      const input = structuredClone(withPreview);
      input.questions[0]!.options[1] = {
        label: "SQLite",
        description: "x",
        preview: "p".repeat(MAX_PREVIEW_CHARS + 1),
      };
      expect(registry.open("question", input)).toEqual({
        ok: false,
        message: `questions.0.options.1.preview: preview must be at most ${MAX_PREVIEW_CHARS} characters`,
      });
    });

    it("answers every question as replied in chat, passing the message to the model", () => {
      expect(registry.readsChat("question")).toBe(true);
      expect(registry.readsChat("approval")).toBe(false);
      expect(registry.chatReply("question", openQuestions(), "Use MySQL instead")).toEqual({
        response: {
          answers: {},
          selections: {},
          annotations: {
            [DATABASE]: { unanswered: "replied_in_chat" },
            [FEATURES]: { unanswered: "replied_in_chat" },
          },
          chatReply: "Use MySQL instead",
        },
        result: {
          content:
            'The user did not pick answers and replied in chat instead: "Use MySQL instead". Take their message as their answer to your questions.',
          isError: false,
        },
      });
    });
  });
});
