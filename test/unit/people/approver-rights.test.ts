// What an invited approver sees and may answer, as plain functions: the scope of an invite, and
// the one-call answers an approval takes from them.
import { beforeAll, describe, expect, it } from "vitest";
import { loadShellReader } from "../../../src/grants/shell-reader";
import { approverAnswerRefusal } from "../../../src/people/approver-answer";
import { inScope } from "../../../src/people/approver-scope";
import { InviteBody } from "../../../src/people/people-terms";

const bash = (command: string, agent = "Claude Code") => ({
  kind: "approval",
  toolName: "Bash",
  request: { toolName: "Bash", input: { command } },
  agent,
});

beforeAll(() => loadShellReader());

describe("an approver's scope", () => {
  it("covers every card for all, one agent's sessions by name, and the calls a rule covers as a deny reads it", () => {
    expect(inScope({ scope: "all" }, bash("rm -rf /"))).toBe(true);
    expect(inScope({ scope: "agent", agent: "Codex" }, bash("ls", "Codex"))).toBe(true);
    expect(inScope({ scope: "agent", agent: "Codex" }, bash("ls", "Claude Code"))).toBe(false);
    const rule = { scope: "rule" as const, rule: "Bash(git push:*)" };
    expect(inScope(rule, bash("git push origin main"))).toBe(true);
    expect(inScope(rule, bash("ls && git push origin main"))).toBe(true);
    expect(inScope(rule, bash("git -C . --no-pager push"))).toBe(true);
    expect(inScope(rule, bash("git status"))).toBe(false);
    expect(
      inScope(rule, { kind: "question", toolName: "AskUserQuestion", request: {}, agent: "Claude Code" }),
    ).toBe(false);
  });
});

describe("an approver's answer", () => {
  it("approves or denies one call and nothing more", () => {
    for (const plain of [
      { decision: "approve" },
      { decision: "approve", remember: false },
      { decision: "deny", reason: "not now" },
    ]) {
      expect(approverAnswerRefusal("approval", plain), JSON.stringify(plain)).toBeNull();
    }
    for (const beyond of [
      { decision: "approve", remember: true },
      { decision: "approve", grant: { rule: "Bash(ls)", scope: "session" } },
      { decision: "approve", updatedInput: { command: "ls" } },
      { decision: "deny", stop: true },
      { decision: "deny", remember: true },
      "approve",
      null,
    ]) {
      expect(approverAnswerRefusal("approval", beyond), JSON.stringify(beyond)).toMatch(/one call/);
    }
  });

  it("leaves other kinds to the answer role's own limits", () => {
    expect(approverAnswerRefusal("question", { answers: {} })).toBeNull();
  });
});

describe("an invite's terms", () => {
  it("takes exactly what its scope needs, a rule that parses, and defaults to a day", () => {
    expect(InviteBody.parse({ name: " Bo ", scope: "rule", rule: "Bash(git push:*)" })).toEqual({
      name: "Bo",
      scope: { scope: "rule", rule: "Bash(git push:*)" },
      email: null,
      expiresInSeconds: 86_400,
    });
    expect(InviteBody.safeParse({ name: "Bo", scope: "agent" }).success).toBe(false);
    expect(InviteBody.safeParse({ name: "Bo", scope: "rule", rule: "Bash(" }).success).toBe(false);
    expect(InviteBody.safeParse({ name: "Bo", scope: "all", agent: "x" }).success).toBe(false);
    expect(InviteBody.safeParse({ name: "Bo", scope: "all", expiresInSeconds: 8 * 86_400 }).success).toBe(
      false,
    );
  });
});
