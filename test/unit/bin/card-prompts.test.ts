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

describe("a plan, in a terminal", () => {
  const plan = (role?: string): Card => ({
    interactionId: "toolu_plan-1",
    toolCallId: "toolu_plan",
    kind: "plan",
    toolName: "ExitPlanMode",
    request: { plan: "1. Read the time\n2. Write a note" },
    ...(role ? { role } : {}),
  });

  it("shows the plan and the page's three choices, and approves with edits accepted or reviewed", () => {
    const [start, accepted] = run(plan(), ["1"]);
    expect(start).toEqual({
      kind: "ask",
      lines: [
        "☰ Ready to carry out this plan?",
        "  1. Read the time",
        "  2. Write a note",
        "  1) Approve · accept edits   2) Approve · review each action   3) Keep planning",
      ],
      prompt: "1/2/3› ",
    });
    expect(accepted).toEqual({
      kind: "send",
      command: { type: "respond", interactionId: "toolu_plan-1", response: { choice: "accept_edits" } },
    });
    expect(run(plan(), ["2"])[1]).toMatchObject({ command: { response: { choice: "review_each" } } });
  });

  it("keeps planning with the typed feedback, or with none on Enter", () => {
    const replies = run(plan(), ["3", "  Also update the changelog  "]);
    expect(replies[1]).toEqual({
      kind: "ask",
      lines: ["What should change? (Enter for no feedback)"],
      prompt: "feedback› ",
    });
    expect(replies[2]).toMatchObject({
      command: { response: { choice: "keep_planning", feedback: "Also update the changelog" } },
    });
    expect(run(plan(), ["3", ""])[2]).toMatchObject({ command: { response: { choice: "keep_planning" } } });
  });

  it("asks again for anything but a choice it offers", () => {
    const replies = run(plan(), ["4", "approve", ""]);
    for (const reply of replies.slice(1))
      expect(reply).toEqual({ kind: "ask", lines: ["Type 1, 2 or 3."], prompt: "1/2/3› " });
  });

  it("offers accepting edits to the owner only: an answer link's terminal cannot pick it", () => {
    const [start, refused] = run(plan("answer"), ["1"]);
    expect(start).toMatchObject({
      lines: expect.arrayContaining(["  2) Approve · review each action   3) Keep planning"]),
      prompt: "2/3› ",
    });
    expect(refused).toEqual({ kind: "ask", lines: ["Type 2 or 3."], prompt: "2/3› " });
  });
});

describe("answering a form in a terminal, field by field", () => {
  // A form a tool asks mid-run has an id of its own, which the answer must name.
  const form: Card = {
    interactionId: "toolu_form-elicit-1",
    toolCallId: "toolu_form",
    kind: "form",
    toolName: "RequestUserInput",
    request: {
      message: "Details for the booking",
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", title: "Name", description: "As on the ticket" },
          seats: { type: "integer", title: "Seats", minimum: 1, default: 2 },
          window: { type: "boolean", title: "Window seat" },
          meal: {
            type: "string",
            title: "Meal",
            oneOf: [
              { const: "veg", title: "Vegetarian" },
              { const: "any", title: "Anything" },
            ],
          },
          extras: { type: "array", title: "Extras", items: { enum: ["wifi", "lounge", "bag"] } },
        },
        required: ["name", "meal"],
      },
    },
  };

  it("asks each field in order and sends the typed values as an accepted form", () => {
    const replies = run(form, ["Ada", "", "y", "1", "3,1"]);
    expect(replies[0]).toMatchObject({
      lines: ["▤ Details for the booking", expect.any(String), "  Name * — As on the ticket"],
      prompt: "name› ",
    });
    expect(replies[2]).toMatchObject({ lines: ["  Window seat"], prompt: "y/n› " });
    expect(replies[3]).toMatchObject({
      lines: ["  Meal *", "    1) Vegetarian", "    2) Anything"],
      prompt: "choice› ",
    });
    expect(replies[5]).toEqual({
      kind: "send",
      command: {
        type: "respond",
        interactionId: "toolu_form-elicit-1",
        response: {
          action: "accept",
          content: { name: "Ada", seats: 2, window: true, meal: "veg", extras: ["wifi", "bag"] },
        },
      },
    });
  });

  it("insists on required fields, checks numbers and yes/no, and skips optional fields on Enter", () => {
    const replies = run(form, ["", "Ada", "two", "2.5", "3", "maybe", "", "2", ""]);
    expect(replies[1]).toMatchObject({ lines: ["This field is required.", "  Name * — As on the ticket"] });
    expect(replies[3]).toMatchObject({ lines: ["Type a number.", expect.any(String)] });
    expect(replies[4]).toMatchObject({ lines: ["Type a whole number.", expect.any(String)] });
    expect(replies[6]).toMatchObject({ lines: ["Type y or n.", expect.any(String)] });
    expect(replies[9]).toMatchObject({
      command: { response: { action: "accept", content: { name: "Ada", seats: 3, meal: "any" } } },
    });
  });

  it("says at the first field how to decline or dismiss, and declines with !decline at any field", () => {
    const [start, , declined] = run(form, ["Ada", "!decline"]);
    expect(start).toMatchObject({
      lines: [
        "▤ Details for the booking",
        "  Enter keeps a [default] or skips an optional field; !decline declines, !cancel dismisses the form.",
        expect.any(String),
      ],
    });
    expect(declined).toEqual({
      kind: "send",
      command: { type: "respond", interactionId: "toolu_form-elicit-1", response: { action: "decline" } },
    });
    expect(run(form, ["!decline"])[1]).toMatchObject({ command: { response: { action: "decline" } } });
  });

  it("dismisses the form with !cancel at any field, answered as the MCP action cancel", () => {
    for (const lines of [["!cancel"], ["Ada", "", " !cancel "]]) {
      expect(run(form, lines).at(-1)).toEqual({
        kind: "send",
        command: { type: "respond", interactionId: "toolu_form-elicit-1", response: { action: "cancel" } },
      });
    }
  });

  it("asks before answering a form without fields: accept, decline or cancel, never accepted unasked", () => {
    const confirm: Card = {
      toolCallId: "toolu_confirm",
      kind: "form",
      toolName: "RequestUserInput",
      request: { message: "Deploy now?", requestedSchema: { type: "object", properties: {} } },
    };
    expect(run(confirm, [])[0]).toEqual({
      kind: "ask",
      lines: ["▤ Deploy now?", "  a) accept   d) decline   c) cancel (dismiss it)"],
      prompt: "a/d/c› ",
    });
    expect(run(confirm, ["maybe"])[1]).toMatchObject({ kind: "ask", lines: ["Type a, d or c."] });
    const answered = (line: string) => (run(confirm, [line])[1] as { command?: unknown }).command;
    expect(answered("a")).toEqual({
      type: "respond",
      toolCallId: "toolu_confirm",
      response: { action: "accept", content: {} },
    });
    expect(answered("D")).toMatchObject({ response: { action: "decline" } });
    expect(answered("c")).toMatchObject({ response: { action: "cancel" } });
    expect(answered("!cancel")).toMatchObject({ response: { action: "cancel" } });
  });
});

describe("a page to visit, in a terminal", () => {
  const card: Card = {
    interactionId: "toolu_u-pushed-1",
    toolCallId: "toolu_u",
    kind: "url",
    toolName: "mcp__everything__trigger-url-elicitation",
    request: { mode: "url", message: "Connect your account", url: "https://accounts.example.com/c?a=1" },
  };

  it("shows the whole address and its host, and sends accept only once the person types done", () => {
    const [start, stray, done] = run(card, ["yes", "done"]);
    expect(start).toEqual({
      kind: "ask",
      lines: ["↗ Connect your account", "  Open on accounts.example.com: https://accounts.example.com/c?a=1"],
      prompt: "done, !decline or !cancel: ",
    });
    expect(stray).toMatchObject({
      kind: "ask",
      lines: ["  Type done once you have finished on accounts.example.com."],
    });
    expect(done).toEqual({
      kind: "send",
      command: { type: "respond", interactionId: "toolu_u-pushed-1", response: { action: "accept" } },
    });
  });

  it("declines or dismisses it", () => {
    expect(run(card, ["!decline"])[1]).toMatchObject({ command: { response: { action: "decline" } } });
    expect(run(card, ["!cancel"])[1]).toMatchObject({ command: { response: { action: "cancel" } } });
  });

  it("offers nothing to answer for an address that is not an http(s) page", () => {
    expect(
      promptFor({ ...card, request: { mode: "url", message: "x", url: "javascript:alert(1)" } }),
    ).toBeNull();
  });
});
