// Relative path rules resolve against the working folder the bridge reports for the agent's
// process, never against a `cwd` the tool's input names.
import { describe, expect, it } from "vitest";
import { parseRule } from "../../../src/grants/grant-rule";
import { type GrantEffect, ruleMatches, type ToolCall } from "../../../src/grants/rule-match";

function covers(rule: string, call: ToolCall, effect: GrantEffect = "allow"): boolean {
  const parsed = parseRule(rule);
  if (!parsed.ok) throw new Error(parsed.message);
  return ruleMatches(parsed.rule, call, effect);
}

describe("a relative path rule and the agent's working folder", () => {
  it("resolves against the folder the bridge reports", () => {
    const call = { toolName: "Edit", input: { file_path: "/home/me/app/src/a.ts" }, cwd: "/home/me/app" };
    expect(covers("Edit(src/**)", call)).toBe(true);
    expect(covers("Edit(src/**)", call, "deny")).toBe(true);
  });

  it("does not cover a file outside the reported folder whatever cwd the input claims", () => {
    const call = {
      toolName: "Edit",
      input: { file_path: "/etc/src/passwd", cwd: "/etc" },
      cwd: "/home/me/app",
    };
    expect(covers("Edit(src/**)", call)).toBe(false);
  });

  it("ignores a cwd in the input when the bridge reports none", () => {
    const call = { toolName: "Edit", input: { file_path: "/etc/src/passwd", cwd: "/etc" } };
    expect(covers("Edit(src/**)", call)).toBe(false);
    expect(covers("Edit(src/**)", { ...call, cwd: null })).toBe(false);
  });

  it("resolves a relative file path against the reported folder too", () => {
    const call = { toolName: "Edit", input: { file_path: "../other/src/a.ts" }, cwd: "/home/me/app" };
    expect(covers("Edit(src/**)", call)).toBe(false);
    expect(covers("Edit(//home/me/other/src/**)", call)).toBe(true);
  });
});
