// A Bash rule's pattern as text with wildcards: `*` is any text, `\*` a literal star and `\\` a
// literal backslash, `:*` at the end the legacy prefix form. Matches whole texts or, for a deny
// that could not read all of a command, whether some completion of a known start could match.

/** One piece of a pattern: literal text, or `*` (any text, none included). */
type Piece = { star: true } | { star: false; char: string };

export interface CommandPattern {
  /** Either of these piece lists matching is a match (the prefix form is two: with and without a tail). */
  alternatives: readonly (readonly Piece[])[];
  /** Whether the pattern has an unescaped `*` (a `:*` ending counts). */
  wildcard: boolean;
}

/** Reads `pattern`, turning the legacy `prefix:*` into `prefix` or `prefix *`. */
export function readPattern(pattern: string): CommandPattern {
  const prefixForm = endsWithPrefixStar(pattern);
  const body = prefixForm ? pattern.slice(0, -2).trimEnd() : pattern;
  const pieces: Piece[] = [];
  for (let i = 0; i < body.length; i += 1) {
    const char = body[i] as string;
    const next = body[i + 1];
    if (char === "\\" && (next === "*" || next === "\\")) {
      pieces.push({ star: false, char: next });
      i += 1;
    } else if (char === "*") pieces.push({ star: true });
    else pieces.push({ star: false, char });
  }
  const tail: Piece[] = [{ star: false, char: " " }, { star: true }];
  if (prefixForm) return { alternatives: [pieces, [...pieces, ...tail]], wildcard: true };
  // A single trailing ` *` is optional, so `ls *` also matches `ls` (Claude Code's reading).
  const stars = pieces.filter((piece) => piece.star).length;
  const beforeLast = pieces.at(-2);
  if (stars === 1 && pieces.at(-1)?.star && beforeLast && !beforeLast.star && beforeLast.char === " ") {
    return { alternatives: [pieces.slice(0, -2), pieces], wildcard: true };
  }
  return { alternatives: [pieces], wildcard: stars > 0 };
}

/** A command as a pattern that matches exactly it: `\\` and `*` escaped. */
export function literalPattern(command: string): string {
  return command.replace(/[\\*]/g, "\\$&");
}

/** The text an escaped pattern spells, `*` standing for any text (for showing a rule to a person). */
export function patternText(pattern: string): string {
  return pattern.replace(/\\([\\*])/g, "$1");
}

/** Whether a pattern ends in the prefix form `:*` (its star cannot be escaped: a colon is before it). */
export function endsWithPrefixStar(pattern: string): boolean {
  return pattern.endsWith(":*");
}

/** Whether `pattern` matches all of `text`. */
export function matchesWhole(pattern: CommandPattern, text: string): boolean {
  return pattern.alternatives.some((pieces) => run(pieces, text).has(pieces.length));
}

/** Whether `pattern` matches some text that starts with `start` (the rest being unknown). */
export function matchesSomeCompletion(pattern: CommandPattern, start: string): boolean {
  return pattern.alternatives.some((pieces) => run(pieces, start).size > 0);
}

/** The pattern positions reachable after reading all of `text` (a small NFA run). */
function run(pieces: readonly Piece[], text: string): Set<number> {
  let states = closure(pieces, [0]);
  for (const char of text) {
    const next: number[] = [];
    for (const at of states) {
      const piece = pieces[at];
      if (!piece) continue;
      if (piece.star) next.push(at);
      else if (piece.char === char) next.push(at + 1);
    }
    states = closure(pieces, next);
    if (states.size === 0) break;
  }
  return states;
}

/** Adds the positions reachable past stars without reading anything. */
function closure(pieces: readonly Piece[], states: readonly number[]): Set<number> {
  const out = new Set<number>();
  for (let at of states) {
    out.add(at);
    while (pieces[at]?.star) {
      at += 1;
      out.add(at);
    }
  }
  return out;
}
