// Properties of Parley's reading of shell lines, over generated lines: no unquoted `$` ever rides
// on an allow, an allow never covers what its deny would not, and a rule offered from a call
// covers that call's own text and nothing else.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { parseRule } from "../../../src/grants/grant-rule";
import { narrowestRule } from "../../../src/grants/narrowest-rule";
import { type GrantEffect, ruleMatches } from "../../../src/grants/rule-match";
import { loadShellReader } from "../../../src/grants/shell-reader";
import { readShell } from "../../../src/grants/shell-reading";

beforeAll(() => loadShellReader());

function covers(rule: string, line: string, effect: GrantEffect): boolean {
  const parsed = parseRule(rule);
  if (!parsed.ok) throw new Error(parsed.message);
  return ruleMatches(parsed.rule, { toolName: "Bash", input: { command: line } }, effect);
}

const plainWord = fc.stringMatching(/^[a-z0-9_./:@%+,-]{1,8}$/);
const singleQuoted = fc
  .string({ maxLength: 8 })
  .filter((text) => !text.includes("'"))
  .map((text) => `'${text}'`);
const expansion = fc
  .tuple(fc.constantFrom("$", "${", "$(", "$((", "$'", '"$'), plainWord)
  .map(([start, name]) => `${start}${name}`);
/** Characters a shell line is made of, operators and quotes included. */
const shellText = fc.string({
  unit: fc.constantFrom(..."ab rm-x;&|<>()$`'\"\\*?[]{}~!=#^\t\n%:/.".split("")),
  maxLength: 30,
});

describe("the reading of generated lines", () => {
  it("never lets an allow cover a line with an unquoted $", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(plainWord, singleQuoted), { maxLength: 4 }),
        expansion,
        fc.array(fc.oneof(plainWord, singleQuoted), { maxLength: 4 }),
        (before, dollar, after) => {
          const line = ["npm", ...before, dollar, ...after].join(" ");
          expect(covers("Bash(npm:*)", line, "allow")).toBe(false);
        },
      ),
    );
  });

  it("never lets an allow cover what a deny of the same rule would not", () => {
    fc.assert(
      fc.property(shellText, (tail) => {
        const line = `rm ${tail}`;
        if (covers("Bash(rm:*)", line, "allow")) expect(covers("Bash(rm:*)", line, "deny")).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("reads any text without throwing, and a deny covers whatever it could not read", () => {
    fc.assert(
      fc.property(shellText, (line) => {
        const reading = readShell(line);
        if (reading.unread.length > 0) expect(covers("Bash(zz:*)", line, "deny")).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("offers a rule that covers the call's own text and no other simple command", () => {
    fc.assert(
      fc.property(shellText, shellText, (call, other) => {
        const rule = narrowestRule("Bash", { command: call });
        if (rule === "Bash" || !parseRule(rule).ok) return;
        if (!covers(rule, other, "allow")) return;
        const sources = readShell(other).commands.map((command) => command.source);
        expect(other.trim() === call.trim() || sources.every((source) => source === call.trim())).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
