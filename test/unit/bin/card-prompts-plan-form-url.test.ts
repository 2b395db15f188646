// Plans, forms and pages to visit answered in a terminal (bin/card-prompts.ts); questions and
// approvals are in card-prompts.test.ts.
import { describe, expect, it } from "vitest";
import { type Card, promptFor } from "../../../bin/card-prompts";
import { run } from "../../helpers/terminal-prompts";

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
