// Line diffs for people to read: old text to new as hunks of added, removed and unchanged lines,
// drawn by jsdiff, with how many lines each side gains and loses. Pure; no platform imports.
import { structuredPatch } from "diff";

export type DiffLineKind = "added" | "removed" | "context";

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
  /** The line's number in the old text, or null for an added line (or a fragment's diff). */
  oldLine: number | null;
  /** The line's number in the new text, or null for a removed line (or a fragment's diff). */
  newLine: number | null;
}

export interface DiffHunk {
  oldStart: number;
  newStart: number;
  lines: DiffLine[];
  /** An edit that replaces every occurrence of its old text (Claude Code's `replace_all`). */
  everyOccurrence?: boolean;
}

/** Unchanged lines shown around each change of a whole file. */
const CONTEXT_LINES = 3;
/**
 * Past this many edits jsdiff gives up and the change reads as all old lines out, all new lines in:
 * still exact, and the work one card costs stays bounded whatever an agent sends.
 */
const MAX_EDIT_LENGTH = 1_000;

function linesOf(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Every old line removed and every new line added, as one hunk. */
function replaceAll(oldText: string, newText: string, numbered: boolean): DiffHunk[] {
  const before = linesOf(oldText);
  const after = linesOf(newText);
  if (before.length === 0 && after.length === 0) return [];
  return [
    {
      oldStart: 1,
      newStart: 1,
      lines: [
        ...before.map((text, i) => ({
          kind: "removed" as const,
          text,
          oldLine: numbered ? i + 1 : null,
          newLine: null,
        })),
        ...after.map((text, i) => ({
          kind: "added" as const,
          text,
          oldLine: null,
          newLine: numbered ? i + 1 : null,
        })),
      ],
    },
  ];
}

/**
 * The hunks from `oldText` to `newText`. `whole` texts are files (a few unchanged lines around each
 * change, lines numbered); otherwise they are fragments shown whole, without line numbers, since
 * where a fragment sits in its file is not known.
 */
export function diffHunks(oldText: string, newText: string, whole: boolean): DiffHunk[] {
  if (oldText === newText) return [];
  const patch = structuredPatch("old", "new", oldText, newText, undefined, undefined, {
    context: whole ? CONTEXT_LINES : Number.MAX_SAFE_INTEGER,
    maxEditLength: MAX_EDIT_LENGTH,
  });
  if (!patch) return replaceAll(oldText, newText, whole);
  return patch.hunks.map((hunk) => {
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    const lines: DiffLine[] = [];
    for (const raw of hunk.lines) {
      const mark = raw[0];
      // "\ No newline at end of file" is the patch format's note, not a line of either text.
      if (mark === "\\") continue;
      const text = raw.slice(1);
      if (mark === "+") lines.push({ kind: "added", text, oldLine: null, newLine: whole ? newLine++ : null });
      else if (mark === "-")
        lines.push({ kind: "removed", text, oldLine: whole ? oldLine++ : null, newLine: null });
      else {
        lines.push({
          kind: "context",
          text,
          oldLine: whole ? oldLine : null,
          newLine: whole ? newLine : null,
        });
        oldLine++;
        newLine++;
      }
    }
    return { oldStart: hunk.oldStart, newStart: hunk.newStart, lines };
  });
}

/** How many lines the hunks add and remove. */
export function countChanges(hunks: readonly DiffHunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const hunk of hunks)
    for (const line of hunk.lines) {
      if (line.kind === "added") added++;
      else if (line.kind === "removed") removed++;
    }
  return { added, removed };
}

/** The number of lines a text has, as an editor counts them (a last newline ends a line). */
export function lineCount(text: string): number {
  return linesOf(text).length;
}
