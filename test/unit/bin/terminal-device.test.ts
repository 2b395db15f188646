import type { Interface as ReadLine } from "node:readline";
import { describe, expect, it } from "vitest";
import { TerminalDevice } from "../../../bin/terminal-device";
import type { SessionClient } from "../../../client/client";
import { ONE_PERSON_ONLY } from "../../../src/protocol/cards/approval-words";

/** A terminal device over a client and a readline that only record what they are given. */
function terminal() {
  const handlers = new Map<string, (value: unknown) => void>();
  const sent: unknown[] = [];
  const client = {
    on: (event: string, handler: (value: unknown) => void) => handlers.set(event, handler),
    send: (command: unknown) => {
      sent.push(command);
      return Promise.resolve({});
    },
  };
  const prompts: string[] = [];
  let typed: (line: string) => void = () => undefined;
  const rl = {
    on: (_event: string, handler: (line: string) => void) => {
      typed = handler;
      return rl;
    },
    setPrompt: (text: string) => prompts.push(text),
    prompt: () => undefined,
  };
  const written: string[] = [];
  new TerminalDevice(
    client as unknown as SessionClient,
    rl as unknown as ReadLine,
    (text) => written.push(text),
    "laptop",
  );
  const events = (list: unknown[]) => handlers.get("events")?.(list);
  const hello = (role: string) =>
    handlers.get("hello")?.({
      deviceId: "laptop",
      role,
      snapshot: { model: "m", status: "waiting_for_user" },
    });
  return { prompts, written, events, hello, sent, type: (line: string) => typed(line) };
}

/** A form card whose one field's key carries a terminal escape and a bidi override. */
const hostileForm = {
  seq: 1,
  type: "interaction_prompt",
  data: {
    interactionId: "toolu_form-1",
    toolCallId: "toolu_form",
    kind: "form",
    toolName: "RequestUserInput",
    request: {
      message: "Details",
      requestedSchema: {
        type: "object",
        properties: { "x\u001b]52;c;aGk=\u0007\u202ey": { type: "string", title: "Name" } },
      },
    },
  },
};

describe("the terminal's readline prompt", () => {
  it("goes through the same inert filter as printed text", () => {
    const { prompts, written, events } = terminal();
    events([hostileForm]);
    const asked = prompts.at(-1) ?? "";
    expect(asked).toBe("x\\x1b]52;c;aGk=\\x07\\u202ey› ");
    for (const prompt of prompts) expect([...prompt].some((c) => c < " " || c === "\u202e")).toBe(false);
    expect(written.join("")).not.toContain("\u202e");
  });
});

/** A plan card, as the session announces it. */
const planCard = {
  seq: 2,
  type: "interaction_prompt",
  data: {
    interactionId: "toolu_plan-1",
    toolCallId: "toolu_plan",
    kind: "plan",
    toolName: "ExitPlanMode",
    request: { plan: "1. Read the time\n2. Write a note" },
  },
};

describe("a plan in the terminal device", () => {
  it("is asked in the terminal, and keeping on planning sends the typed feedback", () => {
    const { prompts, written, events, hello, sent, type } = terminal();
    hello("owner");
    events([planCard]);
    expect(written.join("")).toContain(
      "1) Approve · accept edits   2) Approve · review each action   3) Keep planning",
    );
    expect(prompts.at(-1)).toBe("1/2/3› ");
    type("3");
    type("Add a rollback step");
    expect(sent).toEqual([
      {
        type: "respond",
        interactionId: "toolu_plan-1",
        response: { choice: "keep_planning", feedback: "Add a rollback step" },
      },
    ]);
  });

  it("offers an answer link's terminal no accept-edits choice, as the server would refuse it", () => {
    const { prompts, written, events, hello, sent, type } = terminal();
    hello("answer");
    events([planCard]);
    expect(written.join("")).not.toContain("accept edits");
    type("1");
    expect(sent).toEqual([]);
    expect(prompts.at(-1)).toBe("2/3› ");
    type("2");
    expect(sent).toEqual([
      { type: "respond", interactionId: "toolu_plan-1", response: { choice: "review_each" } },
    ]);
  });
});

describe("an approval that needs a second person, in the terminal", () => {
  it("says how many approvals it needs when it opens, and prints each one counted", () => {
    const { written, events } = terminal();
    const card = {
      interactionId: "ext_push",
      toolCallId: "ext_push",
      kind: "approval",
      toolName: "Bash",
      request: { toolName: "Bash", input: { command: "git push" } },
      approvals: { needed: 2, given: 0, by: [] },
    };
    events([{ seq: 1, type: "approval_required", data: card }]);
    expect(written.join("")).toContain("0 of 2 approvals: this call needs 2 different people");
    events([
      {
        seq: 2,
        type: "approval_counted",
        data: {
          toolCallId: "ext_push",
          interactionId: "ext_push",
          approvals: { needed: 2, given: 1, by: ["ana@example.com"] },
          decider: { kind: "person", label: "ana@example.com", id: "ana@example.com", device: "page" },
          deviceId: "phone",
          at: 1,
        },
      },
    ]);
    expect(written.join("")).toContain("1 of 2 approvals · ana@example.com");
  });

  it("says the call cannot get its second person where the deployment knows only one, when it opens and when one is counted", () => {
    const { written, events } = terminal();
    const alone = { needed: 2, given: 0, by: [], unreachable: ONE_PERSON_ONLY };
    events([
      {
        seq: 1,
        type: "approval_required",
        data: {
          interactionId: "ext_alone",
          toolCallId: "ext_alone",
          kind: "approval",
          toolName: "Bash",
          request: { toolName: "Bash", input: { command: "git push" } },
          approvals: alone,
        },
      },
    ]);
    expect(written.join("")).toContain(`this call ${ONE_PERSON_ONLY}, so it cannot run: deny it`);
    events([
      {
        seq: 2,
        type: "approval_counted",
        data: {
          toolCallId: "ext_alone",
          interactionId: "ext_alone",
          approvals: { ...alone, given: 1, by: ["operator"] },
          decider: { kind: "person", label: "operator", id: "operator", device: "terminal" },
          deviceId: "laptop",
          at: 1,
        },
      },
    ]);
    expect(written.join("")).toContain(`1 of 2 approvals · ${ONE_PERSON_ONLY} · operator`);
  });
});
