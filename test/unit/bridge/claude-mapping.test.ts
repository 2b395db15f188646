// Claude Code's permission requests as cards, and a resolved card as Claude Code's decision: the
// mapping every bridge shares (src/bridge/claude-card.ts, src/bridge/claude-decision.ts).
import { describe, expect, it } from "vitest";
import { cardFor, PLAN_NOT_FOUND, rulesOf } from "../../../src/bridge/claude-card";
import { decisionFor } from "../../../src/bridge/claude-decision";
import type { ExternalInteraction } from "../../../src/protocol/external/external";

function resolved(kind: string, outcome: string, response: unknown): ExternalInteraction {
  return {
    interactionId: "i1",
    kind,
    key: "toolu_1",
    status: "resolved",
    request: {},
    createdAt: 0,
    expiresAt: 1,
    resolution: { outcome: outcome as "answered", response, by: "phone", at: 1 },
  };
}

const question = {
  question: "Which color?",
  header: "Color",
  multiSelect: false,
  options: [
    { label: "Teal", description: "Calm" },
    { label: "Amber", description: "Warm" },
  ],
};

describe("Claude Code's permission requests as cards", () => {
  it("asks AskUserQuestion's questions on a question card", () => {
    expect(cardFor("AskUserQuestion", { questions: [question] })).toEqual({
      kind: "question",
      request: { questions: [question] },
    });
  });

  it("shows the plan found outside the input, and says so when there is none", () => {
    expect(cardFor("ExitPlanMode", {}, "# Plan\n1. Do it")).toEqual({
      kind: "plan",
      request: { plan: "# Plan\n1. Do it" },
    });
    expect(cardFor("ExitPlanMode", {}, null).request.plan).toBe(PLAN_NOT_FOUND);
    expect(cardFor("ExitPlanMode", { plan: "given" }, "found").request.plan).toBe("given");
  });

  it("puts any other tool's whole input on an approval card with its risk", () => {
    const input = { command: "rm -rf build", description: "Remove the build folder" };
    expect(cardFor("Bash", input)).toEqual({
      kind: "approval",
      request: { toolName: "Bash", input, risk: "execute", description: "Remove the build folder" },
    });
    expect(cardFor("Write", { file_path: "/a/b.txt", content: "x" }).request.risk).toBe("edit");
    expect(cardFor("WebFetch", { url: "https://example.com" }).request.risk).toBe("network");
  });
});

describe("a card's resolution as Claude Code's decision", () => {
  it("returns the answers keyed by question text inside the input", () => {
    const input = { questions: [question] };
    const state = resolved("question", "answered", {
      answers: { "Which color?": "Amber" },
      selections: { "Which color?": { labels: ["Amber"], other: null } },
    });
    expect(decisionFor(input, state)).toEqual({
      behavior: "allow",
      updatedInput: { questions: [question], answers: { "Which color?": "Amber" } },
    });
  });

  it("runs the edited input the person approved instead of the one asked about", () => {
    const edited = resolved("approval", "approved", {
      decision: "approve",
      remember: false,
      updatedInput: { command: "touch b" },
    });
    expect(decisionFor({ command: "touch a" }, edited)).toEqual({
      behavior: "allow",
      updatedInput: { command: "touch b" },
    });
  });

  it("answers a remembered approval and a grant made on the card with a plain allow, never a rule for Claude Code to save", () => {
    const input = { command: "npm run test" };
    const remembered = resolved("approval", "approved", { decision: "approve", remember: true });
    const granted = resolved("approval", "approved", {
      decision: "approve",
      remember: false,
      grant: { rule: "Bash(npm run test:*)", scope: "agent" },
    });
    for (const state of [remembered, granted]) {
      const decision = decisionFor(input, state);
      expect(decision).toEqual({ behavior: "allow", updatedInput: input });
      expect(decision).not.toHaveProperty("updatedPermissions");
    }
  });
  it("denies with the person's reason, and stops the turn when they asked to", () => {
    const state = resolved("approval", "denied", { decision: "deny", reason: "Not today", stop: true });
    expect(decisionFor({}, state)).toEqual({
      behavior: "deny",
      message: "The user denied this in Parley: Not today",
      interrupt: true,
    });
  });

  it("keeps planning with the person's feedback", () => {
    const state = resolved("plan", "answered", { choice: "keep_planning", feedback: "Add tests first" });
    expect(decisionFor({}, state)).toEqual({
      behavior: "deny",
      message: "The user wants you to keep planning: Add tests first",
    });
    expect(decisionFor({}, resolved("plan", "answered", { choice: "accept_edits" }))).toEqual({
      behavior: "allow",
      updatedInput: {},
    });
  });

  it("denies a card that timed out or was withdrawn, saying why", () => {
    expect(decisionFor({}, resolved("approval", "timed_out", null))).toEqual({
      behavior: "deny",
      message: "No one answered in Parley before the request's deadline; the tool was not run.",
    });
    expect(decisionFor({}, resolved("approval", "withdrawn", null)).behavior).toBe("deny");
  });
});

describe("Claude Code's always-allow suggestions on the card", () => {
  it("offers the allow rules in Claude Code's own syntax as the card's suggested rules", () => {
    const suggestions = [
      {
        type: "addRules",
        rules: [{ toolName: "Bash", ruleContent: "npm run test:*" }],
        behavior: "allow",
        destination: "localSettings",
      },
      { type: "addRules", rules: [{ toolName: "Bash", ruleContent: "rm:*" }], behavior: "deny" },
      { type: "setMode", mode: "acceptEdits", destination: "session" },
      { type: "addDirectories", directories: ["/tmp"], destination: "session" },
    ];
    const card = cardFor("Bash", { command: "npm run test" }, null, undefined, suggestions);
    expect(card.request).toMatchObject({ suggestedRules: ["Bash(npm run test:*)"] });
    expect(cardFor("Bash", { command: "ls" }).request).not.toHaveProperty("suggestedRules");
  });

  it("writes a rule without content as the bare tool name, drops repeats and keeps at most ten", () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ toolName: "Bash", ruleContent: `cmd${i}:*` }));
    expect(
      rulesOf([
        {
          type: "addRules",
          behavior: "allow",
          rules: [{ toolName: "WebSearch" }, { toolName: "WebSearch" }],
        },
      ]),
    ).toEqual(["WebSearch"]);
    expect(rulesOf([{ type: "addRules", behavior: "allow", rules: many }])).toHaveLength(10);
  });

  it("ignores suggestions that are not Claude Code's shape", () => {
    expect(
      rulesOf([
        null,
        "Bash(ls)",
        { type: "addRules", behavior: "allow", rules: "Bash" },
        { type: "addRules", behavior: "allow", rules: [{ toolName: "" }, { ruleContent: "ls" }, 7] },
      ]),
    ).toEqual([]);
  });
});
