// Every program a line may run, as a deny and an approval policy see it: each simple command with
// its program reduced to a name, then again through wrappers (`sudo`, `env`, `xargs`, `find -exec`
// …), shells' `-c`, `eval`, and past git's global options. What it cannot follow is named.
import { GIT_VALUED_OPTIONS, SHELLS, WRAPPERS, type Wrapper } from "./command-wrappers";
import { type FileRedirect, readShell, type ShellReading } from "./shell-reading";

/** A program and its arguments; null for a word known only when it runs. */
export type Invocation = readonly (string | null)[];

export interface Invocations {
  invocations: Invocation[];
  /** Why some of what the line runs could not be told (then a deny or a policy covers it). */
  unknown: string[];
  /** The file redirections of the line and of the scripts it runs (`bash -c 'echo x > f'`). */
  redirects: FileRedirect[];
}

/** How deep scripts inside scripts (`bash -c "eval '…'"`) are followed. */
const MAX_DEPTH = 8;

/** The invocations in `reading`, wrappers and nested scripts followed. */
export function invocationsOf(reading: ShellReading, depth = 0): Invocations {
  const out: Invocations = {
    invocations: [],
    unknown: [...reading.unread],
    redirects: [...reading.redirects],
  };
  for (const command of reading.commands) follow(command.words, depth, out);
  return out;
}

/** The program a command word names: quotes already gone, a path reduced to its name, zsh's `=` dropped. */
export function programName(word: string): string {
  const name = word.length > 1 && word.startsWith("=") ? word.slice(1) : word;
  return name.slice(name.lastIndexOf("/") + 1);
}

function follow(words: Invocation, depth: number, out: Invocations): void {
  if (words.length === 0) return;
  const first = words[0];
  if (first === null || first === undefined) {
    out.unknown.push("a program named by an expansion");
    return;
  }
  if (depth > MAX_DEPTH) {
    out.unknown.push("commands nested too deep");
    return;
  }
  const name = programName(first);
  const rest = words.slice(1);
  out.invocations.push([name, ...rest]);
  const script = (text: string | null) => runScript(text, depth, out);
  if (SHELLS.has(name)) shellScript(rest, script, out);
  else if (name === "eval") script(joined(rest));
  else if (name === "alias") {
    // `alias x='rm -rf'`: each value is code the line may run later.
    for (const word of rest) {
      if (word === null) script(null);
      else if (word.includes("=")) script(word.slice(word.indexOf("=") + 1));
    }
  } else if (name === "trap") {
    const action = rest[0];
    if (action !== undefined && !action?.startsWith("-")) script(action);
  } else if (name === "find") findExec(rest, depth, out);
  else if (name === "git") gitSubcommand(rest, depth, out);
  else {
    const wrapper = WRAPPERS[name];
    if (wrapper) unwrap(wrapper, rest, depth, out, script);
  }
}

function runScript(text: string | null, depth: number, out: Invocations): void {
  if (text === null) {
    out.unknown.push("a script known only when it runs");
    return;
  }
  const nested = invocationsOf(readShell(text), depth + 1);
  out.invocations.push(...nested.invocations);
  out.unknown.push(...nested.unknown);
  out.redirects.push(...nested.redirects);
}

/** `bash -c 'script'` runs the script; `bash` alone or `bash -s` reads one from its input. */
function shellScript(words: Invocation, script: (text: string | null) => void, out: Invocations): void {
  let runsString = false;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i];
    if (word === null || word === undefined) {
      script(null);
      return;
    }
    if (word === "--" || !/^[-+]/.test(word)) {
      // Without -c the word is a script file, whose commands are not in the line.
      if (runsString) script(word === "--" ? (words[i + 1] ?? null) : word);
      return;
    }
    if (/^[-+][oO]$/.test(word) || word === "--rcfile" || word === "--init-file") i += 1;
    else if (/^-[A-Za-z]*c[A-Za-z]*$/.test(word)) runsString = true;
  }
  if (runsString) {
    script(null);
    return;
  }
  // No script string and no script file: the shell reads commands from its input (`… | bash`).
  out.unknown.push("a shell reading its script from input");
}

/** `find … -exec cmd {} ;` (and -execdir, -ok, -okdir) runs cmd. */
function findExec(words: Invocation, depth: number, out: Invocations): void {
  for (let i = 0; i < words.length; i += 1) {
    if (words[i] === null) out.unknown.push("a find argument known only when it runs");
    if (!["-exec", "-execdir", "-ok", "-okdir"].includes(words[i] ?? "")) continue;
    const end = words.findIndex((word, at) => at > i && (word === ";" || word === "+"));
    const command = words.slice(i + 1, end === -1 ? undefined : end);
    follow(command, depth + 1, out);
    if (end === -1) return;
    i = end;
  }
}

/** `git -C x --no-pager push` runs `git push`; `git -c alias.p='!cmd' p` runs cmd. */
function gitSubcommand(words: Invocation, depth: number, out: Invocations): void {
  let i = 0;
  while (i < words.length) {
    const word = words[i];
    if (word === null || word === undefined) {
      out.unknown.push("a git option known only when it runs");
      return;
    }
    if (!word.startsWith("-") || word === "--") break;
    if (GIT_VALUED_OPTIONS.includes(word)) {
      const value = words[i + 1];
      const alias = value ? /^alias\.[^=]*=(.*)$/is.exec(value) : null;
      // An alias set on the line: `!cmd` is a script; any other renames a subcommand.
      if (alias?.[1]?.startsWith("!")) runScript(alias[1].slice(1), depth, out);
      else if (alias) out.unknown.push("a git alias set on the line");
      i += 2;
    } else i += 1;
  }
  if (i > 0) out.invocations.push(["git", ...words.slice(i)]);
}

function unwrap(
  wrapper: Wrapper,
  words: Invocation,
  depth: number,
  out: Invocations,
  script: (text: string | null) => void,
): void {
  let i = 0;
  let joins = wrapper.joinsRest ?? false;
  while (i < words.length) {
    const word = words[i];
    if (word === null || word === undefined) {
      out.unknown.push("an option known only when it runs");
      return;
    }
    if (word === "--") {
      i += 1;
      break;
    }
    if (wrapper.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
      i += 1;
      continue;
    }
    if (!word.startsWith("-") || word === "-") break;
    const [option, attached] = splitOption(word, wrapper);
    if (wrapper.script?.includes(option)) {
      script(attached ?? words[i + 1] ?? null);
      i += attached === undefined ? 2 : 1;
    } else if (wrapper.valued.includes(option)) i += attached === undefined ? 2 : 1;
    else {
      if (wrapper.scriptFlags?.some((flag) => flag === word || clusterHas(word, flag))) joins = true;
      i += 1;
    }
  }
  // Some take a script option after their operands too (`flock FILE -c 'cmd'`).
  for (let at = i; wrapper.positional && at < words.length; at += 1) {
    const word = words[at];
    if (!word?.startsWith("-")) continue;
    const [option, attached] = splitOption(word, wrapper);
    if (wrapper.script?.includes(option)) script(attached ?? words[at + 1] ?? null);
  }
  i += wrapper.positional ?? 0;
  const command = words.slice(i);
  if (command.length === 0) {
    if (wrapper.defaultCommand) out.invocations.push([wrapper.defaultCommand]);
    return;
  }
  follow(command, depth + 1, out);
  if (joins) script(joined(command));
}

/**
 * `--opt=value` → [`--opt`, `value`]. A short cluster reads as getopt does: `-iu root` is `-i` then
 * `-u root`, `-uroot` is `-u root`; so the first valued letter decides.
 */
function splitOption(word: string, wrapper: Wrapper): [string, string | undefined] {
  if (word.startsWith("--")) {
    const equals = word.indexOf("=");
    return equals === -1 ? [word, undefined] : [word.slice(0, equals), word.slice(equals + 1)];
  }
  for (let at = 1; at < word.length; at += 1) {
    const option = `-${word[at]}`;
    if (wrapper.valued.includes(option) || wrapper.script?.includes(option)) {
      const attached = word.slice(at + 1);
      return [option, attached === "" ? undefined : attached];
    }
  }
  return [word, undefined];
}

function clusterHas(word: string, flag: string): boolean {
  return /^-[A-Za-z]+$/.test(word) && flag.length === 2 && word.includes(flag.slice(1));
}

function joined(words: Invocation): string | null {
  return words.some((word) => word === null) ? null : words.join(" ");
}
