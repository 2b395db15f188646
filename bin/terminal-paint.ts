// Colour in the terminal: which lines a prompt marks (a diff's added and removed lines, its hunk
// headers and file headings), the ANSI codes for them, and whether this terminal wants colour at all.
import type { TextLineKind } from "../src/display/call-text";

/** A line a prompt shows: plain text, or text with a tone the device may colour. */
export type TerminalLine = string | { text: string; tone: TextLineKind };

const CODES: Partial<Record<TextLineKind, string>> = {
  added: "\x1b[32m",
  removed: "\x1b[31m",
  hunk: "\x1b[36m",
  heading: "\x1b[1m",
};
const RESET = "\x1b[0m";

/**
 * Colour only on a terminal, and never when NO_COLOR is set to anything (https://no-color.org):
 * piped into a file or another program, escape codes would be noise.
 */
export function wantsColor(
  env: Readonly<Record<string, string | undefined>>,
  isTTY: boolean | undefined,
): boolean {
  return isTTY === true && (env.NO_COLOR ?? "") === "";
}

/**
 * The line as written: `text` must already be inert (src/protocol/text/inert-text.ts), so the only escape
 * codes in the result are the tone's own.
 */
export function paint(text: string, tone: TextLineKind | null, color: boolean): string {
  const code = tone === null ? undefined : CODES[tone];
  return color && code ? `${code}${text}${RESET}` : text;
}

/** A line's text and tone. */
export function lineParts(line: TerminalLine): { text: string; tone: TextLineKind | null } {
  return typeof line === "string" ? { text: line, tone: null } : line;
}
