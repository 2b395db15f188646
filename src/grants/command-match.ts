// How a shell command meets a Bash rule, from Parley's reading of it. An allow covers only plain
// simple commands in a plain list, one by one; a deny (and an approval policy) looks at every
// program the line may run, and covers what it cannot tell.
import { type Invocations, programName } from "./command-invocations";
import { matchesSomeCompletion, matchesWhole, readPattern } from "./command-pattern";
import { hazardousOption } from "./option-hazards";
import type { ShellReading } from "./shell-reading";

/**
 * Which of the line's simple commands `pattern` allows, in order; null when no allow can cover the
 * line at all (something unread, or more than a list of plain simple commands).
 */
export function commandsAllowed(pattern: string, line: string, reading: ShellReading): boolean[] | null {
  if (reading.unread.length > 0 || !reading.list || reading.commands.length === 0) return null;
  if (reading.commands.some((command) => !command.plain || hazardOf(command.words) !== null)) return null;
  const read = readPattern(pattern);
  // The exact line a person saw (a rule offered from the call) covers all of it at once.
  if (!read.wildcard && matchesWhole(read, line.trim())) return reading.commands.map(() => true);
  return reading.commands.map((command) => matchesWhole(read, command.source));
}

/** Whether `pattern` covers any program the line may run, or the line is one it cannot tell. */
export function commandDenied(pattern: string, line: string, seen: Invocations): boolean {
  if (seen.unknown.length > 0) return true;
  const read = readPattern(denyPattern(pattern));
  if (matchesWhole(read, line.trim())) return true;
  return seen.invocations.some((invocation) => {
    const known = invocation.indexOf(null);
    const words = (known === -1 ? invocation : invocation.slice(0, known)) as string[];
    // Whitespace folded: `git  push`, `git\tpush` and a carriage return are one separator.
    const text = words.join(" ").replace(/\s+/g, " ").trim();
    // A word known only when it runs may be anything: any completion of the known start counts.
    return known === -1 ? matchesWhole(read, text) : matchesSomeCompletion(read, text);
  });
}

/** A deny's pattern read as its invocations are: whitespace folded, a literal program path reduced to its name. */
function denyPattern(pattern: string): string {
  const folded = pattern.replace(/\s+/g, " ").trim();
  const prefixForm = folded.endsWith(":*");
  const body = prefixForm ? folded.slice(0, -2) : folded;
  const space = body.indexOf(" ");
  const first = space === -1 ? body : body.slice(0, space);
  if (!first.includes("/") || /[*\\]/.test(first)) return folded;
  return `${programName(first)}${space === -1 ? "" : body.slice(space)}${prefixForm ? ":*" : ""}`;
}

/** The hazardous option a simple command uses (`npm --script-shell=…`), if any. */
export function hazardOf(words: readonly (string | null)[]): string | null {
  const [first, ...rest] = words;
  if (first === null || first === undefined) return null;
  return hazardousOption([programName(first), ...rest]);
}
