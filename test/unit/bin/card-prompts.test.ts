// Questions and approvals answered in a terminal (bin/card-prompts.ts); plans, forms and pages to
// visit are in card-prompts-plan-form-url.test.ts.
import { describe, expect, it } from "vitest";
import { type Card, promptFor } from "../../../bin/card-prompts";
import { run } from "../../helpers/terminal-prompts";

const question = (multiSelect: boolean, extra: object[] = []): Card => ({
  toolCallId: "toolu_q",
  kind: "question",
  toolName: "AskUserQuestion",
  request: {
    questions: [
      {
        question: "Which colours?",
        header: "Colours",
        multiSelect,
        options: [
          { label: "Red", description: "warm" },
          { label: "Blue", description: "cool" },
        ],
      },
      ...extra,
    ],
  },
});

describe("answering cards in a terminal", () => {
  it("numbers the options, offers Other last, and sends the chosen label", () => {
    const [start, sent] = run(question(false), ["2"]);
    expect(start).toEqual({
      kind: "ask",
      lines: [
        "? [Colours] Which colours?",
        "  1) Red — warm",
        "  2) Blue — cool",
        "  3) Other — type your own answer",
      ],
      prompt: "choice› ",
    });
    expect(sent).toEqual({
      kind: "send",
      command: { type: "submit_answers", toolCallId: "toolu_q", answers: { "Which colours?": "Blue" } },
    });
  });

  it("takes several picks plus Other text for a multi-select question", () => {
    const replies = run(question(true), ["2, 1,3", "Green"]);
    expect(replies[1]).toEqual({ kind: "ask", lines: [], prompt: "other› " });
    expect(replies[2]).toMatchObject({
      command: { answers: { "Which colours?": ["Red", "Blue", "Green"] } },
    });
  });

  it("asks again, saying how, when the input is not a valid choice", () => {
    const replies = run(question(false), ["7", "1 2", "red"]);
    for (const reply of replies.slice(1))
      expect(reply).toMatchObject({ kind: "ask", lines: ["Type a number from 1 to 3."] });
  });

  it("walks through several questions before sending them together", () => {
    const second = {
      question: "Ship when?",
      header: "When",
      multiSelect: false,
      options: [
        { label: "Today", description: "" },
        { label: "Later", description: "" },
      ],
    };
    const replies = run(question(false, [second]), ["1", "3", "next spring"]);
    expect(replies[1]).toMatchObject({
      kind: "ask",
      lines: ["? [When] (2/2) Ship when?", "  1) Today", "  2) Later", "  3) Other — type your own answer"],
    });
    expect(replies[3]).toMatchObject({
      command: { answers: { "Which colours?": "Red", "Ship when?": "next spring" } },
    });
  });

  it("approves, always allows, or denies with an optional reason", () => {
    const card: Card = {
      toolCallId: "toolu_a",
      kind: "approval",
      toolName: "notes_write",
      request: { toolName: "notes_write", input: { key: "k" }, risk: "edit" },
    };
    expect(run(card, [])[0]).toMatchObject({
      lines: ['! Approve notes_write (edit)? {"key":"k"}', expect.any(String)],
    });
    expect(run(card, ["a"])[1]).toEqual({
      kind: "send",
      command: { type: "approve", toolCallId: "toolu_a" },
    });
    expect(run(card, ["always"])[1]).toEqual({
      kind: "send",
      command: { type: "approve", toolCallId: "toolu_a", remember: true },
    });
    expect(run(card, ["d", "too risky"])[2]).toEqual({
      kind: "send",
      command: { type: "deny", toolCallId: "toolu_a", reason: "too risky" },
    });
    expect(run(card, ["d", ""])[2]).toEqual({
      kind: "send",
      command: { type: "deny", toolCallId: "toolu_a" },
    });
    expect(run(card, ["maybe"])[1]).toMatchObject({ kind: "ask", lines: ["Type a, l, g, e or d."] });
  });

  it("allows … for: the narrowest rule pre-filled, refused when malformed, then where and how long", () => {
    const card: Card = {
      interactionId: "ext_1",
      toolCallId: "ext_1",
      kind: "approval",
      toolName: "Bash",
      request: { toolName: "Bash", input: { command: "npm run test -- --watch=false" }, risk: "execute" },
    };
    const started = run(card, ["g"])[1];
    expect(started).toMatchObject({ kind: "ask", prompt: "rule› " });
    expect(JSON.stringify(started)).toContain("Bash(npm run test -- --watch=false)");
    expect(run(card, ["g", "Bash(npm:* x)"])[2]).toMatchObject({
      kind: "ask",
      lines: [expect.stringContaining('":*" may only end the pattern')],
      prompt: "rule› ",
    });
    const widened = run(card, ["g", "Bash(npm run test:*)", "a", "d"]);
    expect(widened[2]).toMatchObject({ prompt: "s/a/e› " });
    expect((widened[2] as { lines: string[] }).lines[0]).toContain('start with "npm run test "');
    expect(widened[4]).toEqual({
      kind: "send",
      command: {
        type: "respond",
        interactionId: "ext_1",
        response: {
          decision: "approve",
          grant: { rule: "Bash(npm run test:*)", scope: "agent", expiresInSeconds: 86_400 },
        },
      },
    });
    expect(run(card, ["g", "", "s", "r"])[4]).toMatchObject({
      command: { response: { grant: { rule: "Bash(npm run test -- --watch=false)", scope: "session" } } },
    });
    expect(run(card, ["g", "", "x"])[3]).toMatchObject({ lines: ["Type s, a or e."] });
  });

  it("approves arguments a person edited as one line of JSON, and asks again when they are not an object", () => {
    const card: Card = {
      toolCallId: "toolu_e",
      kind: "approval",
      toolName: "notes_write",
      request: { toolName: "notes_write", input: { key: "k", text: "old" }, risk: "edit" },
    };
    expect(run(card, ["e"])[1]).toMatchObject({
      kind: "ask",
      lines: [expect.any(String), '  {"key":"k","text":"old"}'],
    });
    expect(run(card, ["e", '{"key":"k","text":"new"}'])[2]).toEqual({
      kind: "send",
      command: { type: "approve", toolCallId: "toolu_e", updatedInput: { key: "k", text: "new" } },
    });
    expect(run(card, ["e", "{oops"])[2]).toMatchObject({
      kind: "ask",
      lines: [expect.stringMatching(/^Not valid JSON/)],
    });
    expect(run(card, ["e", "[1]"])[2]).toMatchObject({ kind: "ask", prompt: "arguments› " });
    expect(run(card, ["e", ""])[2]).toMatchObject({ kind: "ask", prompt: "a/l/g/e/d› " });
  });

  it("shows an approval's whole input, also next to a description", () => {
    const text = "x".repeat(500);
    const card: Card = {
      toolCallId: "toolu_long",
      kind: "approval",
      toolName: "bash",
      request: { toolName: "bash", description: "Run a command", input: { command: `echo ${text}` } },
    };
    const [start] = run(card, []);
    expect(start).toMatchObject({
      lines: [
        "! Approve bash? Run a command",
        `  input: ${JSON.stringify({ command: `echo ${text}` })}`,
        expect.any(String),
      ],
    });
  });

  it("shows an external agent's risk and description as the agent's claim", () => {
    const card: Card = {
      toolCallId: "toolu_claim",
      kind: "approval",
      toolName: "Bash",
      request: {
        toolName: "Bash",
        input: { command: "rm -rf build" },
        claim: { risk: "read", description: "Harmless cleanup" },
      },
    };
    const [start] = run(card, []);
    expect(start).toMatchObject({
      lines: [
        "! Approve Bash (the agent says: read)? the agent says: Harmless cleanup",
        `  input: ${JSON.stringify({ command: "rm -rf build" })}`,
        expect.any(String),
      ],
    });
  });

  it("leaves kinds it cannot render to the browser", () => {
    expect(promptFor({ toolCallId: "t", kind: "rating", toolName: "Rate", request: {} })).toBeNull();
  });
});
