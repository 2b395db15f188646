// Differential tests: what Parley's reading of a line says is checked against what real bash and
// zsh run. Every line the command table lets an allow cover runs with a PATH of recording stubs
// and a canary; every spelling of rm runs with a recording rm, through the real wrappers.
import { rmSync } from "node:fs";
import process from "node:process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRule } from "../../../src/grants/grant-rule";
import { ruleMatches } from "../../../src/grants/rule-match";
import { loadShellReader } from "../../../src/grants/shell-reader";
import { readShell } from "../../../src/grants/shell-reading";
import { COMMAND_TABLE } from "./command-table";
import { findProgram, type ShellName, shellSandbox } from "./shell-sandbox";

const hasZsh = findProgram("zsh") !== null;
// In CI a skipped shell would pass in silence: without zsh the run fails (.ci/run installs it).
if (process.env.CI === "true" && !hasZsh) throw new Error("CI=true but zsh is missing (apt-get install zsh)");
if (!hasZsh) console.warn("differential shell tests skipped: zsh not found (apt-get install zsh)");

const SHELLS: readonly ShellName[] = ["bash", "zsh", "zsh -o extendedglob"];

beforeAll(() => loadShellReader());

function covers(rule: string, line: string, effect: "allow" | "deny"): boolean {
  const parsed = parseRule(rule);
  if (!parsed.ok) throw new Error(parsed.message);
  return ruleMatches(parsed.rule, { toolName: "Bash", input: { command: line } }, effect);
}

/** The program a rule names: its pattern's first word, a path reduced to its name. */
function programOf(rule: string): string {
  const word = (/^Bash\(([^ :)]+)/.exec(rule)?.[1] ?? "").replace(/\\/g, "");
  return word.slice(word.lastIndexOf("/") + 1);
}

const ALLOWED = COMMAND_TABLE.filter(([, , allow]) => allow);
/** Every program any line of the table could name, as a recording stub; anything else is not found. */
const STUBS = [
  ...new Set([
    ...COMMAND_TABLE.map(([, rule]) => programOf(rule)),
    ...[
      "touch",
      "sh",
      "bash",
      "zsh",
      "env",
      "cat",
      "id",
      "xargs",
      "sudo",
      "python3",
      "perl",
      "awk",
      "cp",
      "mv",
    ],
  ]),
].filter((name) => name !== "");

describe.skipIf(!hasZsh)("a line an allow covers, run by real bash and zsh", () => {
  const sandbox = shellSandbox(STUBS);
  afterAll(() => rmSync(sandbox.root, { recursive: true, force: true }));

  it.each(ALLOWED)("%j under %s runs only what the rule names, as Parley read it", (line, rule) => {
    expect(covers(rule, line, "allow")).toBe(true);
    const program = programOf(rule);
    const reading = readShell(line);
    const words = reading.commands.map((command) => JSON.stringify(command.words));
    for (const shell of SHELLS) {
      const run = sandbox.run(shell, line);
      expect({ shell, notFound: run.notFound, untouched: run.untouched }).toEqual({
        shell,
        notFound: [],
        untouched: true,
      });
      expect(run.calls.length, `${shell} ran nothing: ${run.stderr}`).toBeGreaterThan(0);
      for (const call of run.calls) {
        expect({ shell, program: call[0] }).toEqual({ shell, program });
        // The arguments the shell passed are the words Parley read.
        expect(words).toContain(JSON.stringify(call));
      }
    }
  });
});

/**
 * Spellings of rm: each runs the recording rm under at least one of the shells (zsh-only forms
 * under zsh), through the real wrappers, and a deny of `Bash(rm:*)` covers every one.
 */
const RM_SPELLINGS = [
  "rm x",
  "'rm' x",
  '"rm" x',
  "r''m x",
  "\\rm x",
  "r\\m x",
  "$'rm' x",
  "$'\\x72m' x",
  "./../bin/rm x",
  "=rm x",
  "rm\tx",
  "env rm x",
  "env -u HOME rm x",
  "FOO=1 rm x",
  "command rm x",
  "exec rm x",
  "nohup rm x",
  "time rm x",
  "nice rm x",
  "nice -n 5 rm x",
  "timeout 5 rm x",
  "stdbuf -o0 rm x",
  "setsid -w rm x",
  "echo x | xargs rm",
  "echo x | xargs -I {} rm {}",
  "find . -maxdepth 0 -exec rm {} +",
  "find . -maxdepth 0 -execdir rm {} ';'",
  "bash -c 'rm x'",
  "sh -c 'rm x'",
  "zsh -c 'rm x'",
  "bash -c \"bash -c 'rm x'\"",
  "echo 'rm x' | bash",
  "eval rm x",
  "eval 'rm x'",
  "if true; then rm x; fi",
  "while rm x; do break; done",
  "for f in a; do rm $f; done",
  "case x in x) rm x;; esac",
  "f() { rm x; }; f",
  "(rm x)",
  "{ rm x; }",
  "! rm x",
  "ls; rm x",
  "ls && rm x",
  "false || rm x",
  "ls | rm x",
  "ls\nrm x",
  "echo $(rm x)",
  "echo `rm x`",
  'echo "$(rm x)"',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
  "echo ${x:-$(rm y)}",
  "cat <(rm x)",
  "X=$(rm x) ls",
  "ls > $(rm x)",
  "trap 'rm x' EXIT",
  "C=rm; $C x",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
  "${C:-rm} x",
  "$(echo rm) x",
  "{rm,} x",
  "ls *(e:'rm x':)",
  "ls *(+rm)",
  "cat =(rm x)",
  "repeat 1 rm x",
  "nocorrect rm x",
  "noglob rm x",
  "true; - rm x",
];

/** Lines that look like rm but run no rm: a deny that covers none of them is not over-broad. */
const NOT_RM = ["rmdir x", "ls rm", "echo rm x", "git rm x", "ls $HOME", "cat rm.txt", "echo 'rm x'"];

const WRAPPERS = [
  "env",
  "nohup",
  "nice",
  "timeout",
  "stdbuf",
  "setsid",
  "xargs",
  "find",
  "bash",
  "sh",
  "zsh",
];

describe.skipIf(!hasZsh)("a deny of rm, against what real shells run", () => {
  const sandbox = shellSandbox(["rm", "ls", "cat", "git", "rmdir", "false"], WRAPPERS);
  afterAll(() => rmSync(sandbox.root, { recursive: true, force: true }));

  it.each(RM_SPELLINGS)("%j runs rm in a real shell, and the deny covers it", (line) => {
    // zsh's `- cmd` runs cmd with a `-` before its name, as a login shell is.
    const isRm = (call: readonly string[]) => call[0]?.replace(/^-/, "") === "rm";
    const ran = SHELLS.filter((shell) => sandbox.run(shell, line, "x\n").calls.some(isRm));
    expect(ran.length, `no shell ran rm for ${JSON.stringify(line)}`).toBeGreaterThan(0);
    expect(covers("Bash(rm:*)", line, "deny")).toBe(true);
  });

  it.each(NOT_RM)("%j runs no rm in any shell, and the deny leaves it", (line) => {
    for (const shell of SHELLS) {
      const calls = sandbox.run(shell, line).calls;
      expect({ shell, rm: calls.some((call) => call[0] === "rm") }).toEqual({ shell, rm: false });
    }
    expect(covers("Bash(rm:*)", line, "deny")).toBe(false);
  });
});

describe.skipIf(!hasZsh)("the sandbox the differential tests read", () => {
  const sandbox = shellSandbox(["npm"]);
  afterAll(() => rmSync(sandbox.root, { recursive: true, force: true }));

  it("records each call of a pipeline's stubs, run at once, as a call of its own", () => {
    // Many runs: a record split by another's would show as one call of both, or of neither.
    for (const shell of SHELLS) {
      for (let round = 0; round < 40; round++) {
        const calls = sandbox
          .run(shell, "npm run test | npm test x")
          .calls.map((call) => JSON.stringify(call));
        expect({ shell, round, calls: calls.sort() }).toEqual({
          shell,
          round,
          calls: ['["npm","run","test"]', '["npm","test","x"]'],
        });
      }
    }
  });

  it("records a program the shell cannot find, with its arguments", () => {
    for (const shell of SHELLS) {
      expect({ shell, notFound: sandbox.run(shell, "nosuch a 'b c'").notFound }).toEqual({
        shell,
        notFound: ["nosuch a b c"],
      });
    }
  });
});
