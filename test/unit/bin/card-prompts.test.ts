import { describe, expect, it } from "vitest";
import { type Card, promptFor, type Reply } from "../../../bin/card-prompts";

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

function run(card: Card, lines: string[]): Reply[] {
  const prompt = promptFor(card);
  if (!prompt) throw new Error("no prompt");
  return [prompt.start(), ...lines.map((line) => prompt.input(line))];
}

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
    expect(run(card, ["maybe"])[1]).toMatchObject({ kind: "ask", lines: ["Type a, l or d."] });
  });

  it("leaves kinds it cannot render to the browser", () => {
    expect(promptFor({ toolCallId: "t", kind: "plan", toolName: "ExitPlanMode", request: {} })).toBeNull();
  });
});
