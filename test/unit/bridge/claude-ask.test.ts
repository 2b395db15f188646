// One Claude Code request through the bridges' shared ask (src/bridge/claude-ask.ts) over a line
// held in memory: the card it opens, the key it uses, and the decision it gives back.
import { describe, expect, it } from "vitest";
import { PermissionPromptInput } from "../../../src/bridge/approve-tool";
import type { CardLine, KeyedCard } from "../../../src/bridge/card-wait";
import { askClaude } from "../../../src/bridge/claude-ask";
import type { ExternalInteraction } from "../../../src/protocol/external/external";

const suggestions = [
  {
    type: "addRules",
    rules: [{ toolName: "Bash", ruleContent: "npm run *" }],
    behavior: "allow",
    destination: "localSettings",
  },
];

/** A line that records the card it was given and answers it with `response`. */
function answeringLine(response: unknown) {
  const opened: KeyedCard[] = [];
  const line: CardLine = {
    open: async (card) => {
      opened.push(card);
      return { interactionId: "ext_1" };
    },
    wait: async (interactionId): Promise<ExternalInteraction> => ({
      interactionId,
      kind: opened[0]?.kind ?? "approval",
      key: opened[0]?.key ?? null,
      status: "resolved",
      request: opened[0]?.request,
      createdAt: 0,
      expiresAt: 1,
      resolution: { outcome: "approved", response, by: "phone", at: 1 },
    }),
  };
  return { line, opened };
}

describe("a Claude Code request asked through a bridge", () => {
  it("opens the call's approval keyed by its tool_use_id, with Claude Code's suggestion as the card's rule", async () => {
    const { line, opened } = answeringLine({ decision: "approve", remember: false });
    const input = { command: "npm run test -- --watch=false" };
    const decision = await askClaude(line, {
      toolName: "Bash",
      input,
      toolUseId: "toolu_01",
      suggestions,
    });
    expect(opened).toEqual([
      {
        kind: "approval",
        key: "toolu_01",
        request: {
          toolName: "Bash",
          input,
          risk: "execute",
          description: "npm run test -- --watch=false",
          suggestedRules: ["Bash(npm run *)"],
        },
      },
    ]);
    expect(decision).toEqual({ behavior: "allow", updatedInput: input });
  });

  it("answers a grant made from the suggestion with a plain allow, so Claude Code saves nothing", async () => {
    const { line } = answeringLine({
      decision: "approve",
      remember: false,
      grant: { rule: "Bash(npm run *)", scope: "agent" },
    });
    const decision = await askClaude(line, {
      toolName: "Bash",
      input: { command: "npm run x" },
      suggestions,
    });
    expect(decision).toEqual({ behavior: "allow", updatedInput: { command: "npm run x" } });
  });

  it("takes permission_suggestions on the approve tool, for a Claude Code that sends them there", () => {
    const parsed = PermissionPromptInput.parse({
      tool_name: "Bash",
      input: { command: "ls" },
      tool_use_id: "toolu_02",
      permission_suggestions: suggestions,
    });
    expect(parsed.permission_suggestions).toEqual(suggestions);
    expect(
      PermissionPromptInput.safeParse({ tool_name: "Bash", input: {}, permission_suggestions: "Bash" })
        .success,
    ).toBe(false);
  });
});

describe("the working folder a bridge reports", () => {
  it("travels beside the card, never inside the tool's input", async () => {
    const { line, opened } = answeringLine({ decision: "approve", remember: false });
    const input = { file_path: "src/a.ts", old_string: "a", new_string: "b" };
    await askClaude(line, { toolName: "Edit", input, toolUseId: "toolu_cwd", cwd: "/home/me/app" });
    expect(opened[0]).toMatchObject({ key: "toolu_cwd", cwd: "/home/me/app", request: { input } });
    expect(JSON.stringify(opened[0]?.request)).not.toContain("/home/me/app");
  });

  it("is left out when the bridge knows none", async () => {
    const { line, opened } = answeringLine({ decision: "approve", remember: false });
    await askClaude(line, { toolName: "Bash", input: { command: "ls" }, toolUseId: "toolu_nocwd" });
    expect(opened[0]).not.toHaveProperty("cwd");
  });
});
