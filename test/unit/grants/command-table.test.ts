import { beforeAll, describe, expect, it } from "vitest";
import { approvalsNeeded } from "../../../src/grants/approvals-needed";
import { parseRule } from "../../../src/grants/grant-rule";
import { type GrantEffect, ruleMatches } from "../../../src/grants/rule-match";
import { loadShellReader } from "../../../src/grants/shell-reader";
import { COMMAND_TABLE } from "./command-table";

beforeAll(() => loadShellReader());

function covers(rule: string, command: string, effect: GrantEffect): boolean {
  const parsed = parseRule(rule);
  if (!parsed.ok) throw new Error(parsed.message);
  return ruleMatches(parsed.rule, { toolName: "Bash", input: { command } }, effect);
}

describe("the command table", () => {
  it("has at least 200 rows", () => {
    expect(COMMAND_TABLE.length).toBeGreaterThanOrEqual(200);
  });

  it.each(COMMAND_TABLE)("%j under %s: an allow covers it %s, a deny %s", (line, rule, allow, deny) => {
    expect(covers(rule, line, "allow")).toBe(allow);
    expect(covers(rule, line, "deny")).toBe(deny);
    // An approval policy reads the line as a deny does: two approvals exactly where a deny covers.
    expect(approvalsNeeded([{ rule, approvals: 2 }], { toolName: "Bash", input: { command: line } })).toBe(
      deny ? 2 : 1,
    );
  });

  it("never lets an allow cover what its deny would not", () => {
    for (const [line, rule, allow, deny] of COMMAND_TABLE)
      if (allow) expect([line, rule, deny]).toEqual([line, rule, true]);
  });
});
