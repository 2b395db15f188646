import { beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../../../src/config";
import { approvalsNeeded } from "../../../src/grants/approvals-needed";
import { loadShellReader } from "../../../src/grants/shell-reader";

const env = { SESSION_SECRET: "a-session-secret-of-at-least-32-bytes" };

describe("APPROVAL_POLICIES", () => {
  it("is read as rules in the grants' syntax with how many distinct approvals each needs; absent is none", () => {
    expect(readConfig(env).approvalPolicies).toEqual([]);
    const policies = [
      { rule: "Bash(git push:*)", approvals: 2 },
      { rule: "mcp__prod__*", approvals: 3 },
    ];
    expect(readConfig({ ...env, APPROVAL_POLICIES: JSON.stringify(policies) }).approvalPolicies).toEqual(
      policies,
    );
  });

  it("fails closed naming the bad entry: a malformed rule, too few or too many approvals, not JSON", () => {
    const read = (policies: unknown) => () =>
      readConfig({ ...env, APPROVAL_POLICIES: JSON.stringify(policies) });
    expect(read([{ rule: "Bash(git push:*", approvals: 2 }])).toThrow(/APPROVAL_POLICIES: 0\.rule/);
    expect(read([{ rule: "Bash(git push:*)", approvals: 1 }])).toThrow(
      /APPROVAL_POLICIES: 0\.approvals: approvals must be at least 2/,
    );
    expect(
      read([
        { rule: "Bash", approvals: 2 },
        { rule: "Bash", approvals: 9 },
      ]),
    ).toThrow(/APPROVAL_POLICIES: 1\.approvals: approvals must be at most 5/);
    expect(read([{ rule: "Bash", approvals: 2, who: "ops" }])).toThrow(
      /APPROVAL_POLICIES: 0: Unrecognized key/,
    );
    expect(read({ rule: "Bash", approvals: 2 })).toThrow(/APPROVAL_POLICIES: Invalid input: expected array/);
    expect(() => readConfig({ ...env, APPROVAL_POLICIES: "[{rule}]" })).toThrow(
      /APPROVAL_POLICIES is not JSON/,
    );
  });
});

describe("approvalsNeeded", () => {
  beforeAll(() => loadShellReader());
  const policies = [
    { rule: "Bash(git push:*)", approvals: 2 },
    { rule: "mcp__prod__*", approvals: 3 },
  ];
  const bash = (command: string) => ({ toolName: "Bash", input: { command } });

  it("asks the most any covering rule asks, else one", () => {
    expect(approvalsNeeded(policies, bash("git push origin main"))).toBe(2);
    expect(approvalsNeeded(policies, bash("git push"))).toBe(2);
    expect(approvalsNeeded(policies, { toolName: "mcp__prod__deploy", input: {} })).toBe(3);
    expect(approvalsNeeded(policies, bash("git status"))).toBe(1);
    expect(approvalsNeeded(policies, { toolName: "mcp__staging__deploy", input: {} })).toBe(1);
    expect(approvalsNeeded([], bash("git push"))).toBe(1);
  });

  it("asks the most of any rule for a call whose tool is not known, which may be any of them", () => {
    expect(
      approvalsNeeded(policies, { toolName: "acp:execute", input: { command: "git push", workdir: "/p" } }),
    ).toBe(3);
    expect(
      approvalsNeeded([{ rule: "Bash(git push:*)", approvals: 2 }], { toolName: "acp:other", input: {} }),
    ).toBe(2);
    expect(approvalsNeeded([], { toolName: "acp:execute", input: {} })).toBe(1);
  });

  it("covers a push hidden inside a compound command, as a deny would", () => {
    expect(approvalsNeeded(policies, bash("git status && git push --force"))).toBe(2);
    expect(approvalsNeeded(policies, bash("ls; git push"))).toBe(2);
  });

  it("covers a push however it is spelt, and a command it cannot read", () => {
    for (const spelling of [
      "git  push origin main",
      "git -C . push origin main",
      "git --no-pager push origin main",
      "sudo git push",
      "bash -c 'git push'",
      "git $SUB origin main",
      "git push 'unclosed",
    ])
      expect([spelling, approvalsNeeded(policies, bash(spelling))]).toEqual([spelling, 2]);
    expect(approvalsNeeded(policies, bash("git pull origin main"))).toBe(1);
  });
});
