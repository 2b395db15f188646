// A scratch folder to run shell lines in for the differential tests: a PATH of stub programs that
// record how they were called, a canary file, and hooks that record any program not found. Real
// bash and zsh (apt-get install zsh) run the lines; nothing else on the machine is reachable by name.
import { spawnSync } from "node:child_process";
import {
  accessSync,
  chmodSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One run of a program: its name (as the shell found it) and its arguments. */
export type Call = readonly string[];

export interface ShellRun {
  calls: Call[];
  /** Names the shell looked up and did not find. */
  notFound: string[];
  /** Whether the canary file is as it was, and no file appeared or went. */
  untouched: boolean;
  stderr: string;
}

export type ShellName = "bash" | "zsh" | "zsh -o extendedglob";

const CANARY = "canary";
const CANARY_TEXT = "the canary is unharmed\n";
// Units and records separated by control characters no test line uses.
const UNIT = "\u001f";
const RECORD = "\u001e";

export function findProgram(name: string): string | null {
  for (const folder of (process.env.PATH ?? "/usr/bin:/bin").split(":")) {
    try {
      accessSync(join(folder, name), constants.X_OK);
      return join(folder, name);
    } catch {
      // not in this folder
    }
  }
  return null;
}

/**
 * A sandbox whose PATH holds a recording stub for each of `stubs`, and the real program for each
 * of `real` (wrappers such as env and xargs, so what they run is found on the same PATH).
 */
export function shellSandbox(stubs: readonly string[], real: readonly string[] = []) {
  const root = mkdtempSync(join(tmpdir(), "parley-shells-"));
  const bin = join(root, "bin");
  const work = join(root, "work");
  const zdot = join(root, "zdot");
  for (const folder of [bin, work, zdot]) mkdirSync(folder);
  const log = join(root, "calls");
  // Each record is one write: the stubs of a pipeline run at once, and a record written in parts
  // (its words, then its end) could be split by another's ("a | b" read as one call of both).
  const record = (first: string) =>
    `r=${first}; for a in "$@"; do r="$r$a${UNIT}"; done; printf '%s' "$r${RECORD}" >> "$PARLEY_CALLS"`;
  const stub = `#!/bin/sh\n${record(`"\${0##*/}${UNIT}"`)}\n`;
  for (const name of stubs) {
    writeFileSync(join(bin, name), stub);
    chmodSync(join(bin, name), 0o755);
  }
  for (const name of real) {
    const path = findProgram(name);
    if (path) symlinkSync(path, join(bin, name));
  }
  // Programs that are not found are recorded too: the run may call nothing the rule does not name.
  const notFound = `${record("'?'")}; return 127`;
  writeFileSync(join(root, "bash-env"), `command_not_found_handle() { ${notFound}; }\n`);
  writeFileSync(
    join(zdot, ".zshenv"),
    `command_not_found_handler() { ${notFound}; }\n[[ -n $PARLEY_EXTENDED_GLOB ]] && setopt extendedglob\n`,
  );
  const bash = findProgram("bash");
  const zsh = findProgram("zsh");

  function run(shell: ShellName, line: string, input = ""): ShellRun {
    writeFileSync(log, "");
    writeFileSync(join(work, CANARY), CANARY_TEXT);
    const before = readdirSync(work).sort().join("/");
    const env = {
      PATH: bin,
      HOME: work,
      PARLEY_CALLS: log,
      BASH_ENV: join(root, "bash-env"),
      ZDOTDIR: zdot,
      ...(shell === "zsh -o extendedglob" ? { PARLEY_EXTENDED_GLOB: "1" } : {}),
    };
    const program = shell === "bash" ? bash : zsh;
    if (!program) throw new Error(`${shell} is not installed`);
    const args = shell === "bash" ? ["--norc", "--noprofile", "-c", line] : ["-c", line];
    const result = spawnSync(program, args, { cwd: work, env, input, encoding: "utf8", timeout: 10_000 });
    const records = readFileSync(log, "utf8")
      .split(RECORD)
      .filter((record) => record !== "");
    const units = records.map((record) => record.split(UNIT).slice(0, -1));
    const after = readdirSync(work).sort().join("/");
    let canary = "";
    try {
      canary = readFileSync(join(work, CANARY), "utf8");
    } catch {
      // gone: the canary was touched
    }
    return {
      calls: units.filter((call) => !call[0]?.startsWith("?")),
      notFound: units.filter((call) => call[0]?.startsWith("?")).map((call) => call.join(" ").slice(1)),
      untouched: before === after && canary === CANARY_TEXT,
      stderr: result.stderr,
    };
  }

  return { run, root, hasZsh: zsh !== null };
}
