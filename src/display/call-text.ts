// A call's display model as plain lines (for a terminal, which colours them by kind) and as the one
// line chat shows for a change: "+12 −3 in src/app.ts". Long argument values are cut and say so.
import { foldText } from "./call-arguments";
import type { CallDisplay, CellEdit } from "./call-display";

export type TextLineKind = "heading" | "hunk" | "added" | "removed" | "context" | "plain";

export interface TextLine {
  kind: TextLineKind;
  text: string;
}

/** Most characters of one argument's value a text shows before "…(N more chars)". */
export const TEXT_FOLD_CHARS = 200;

const MINUS = "\u2212";

function plural(count: number, one: string): string {
  return `${count} ${one}${count === 1 ? "" : "s"}`;
}

function cellWords(cell: CellEdit): string {
  const where = cell.cellId === null ? "a new first cell" : `cell ${cell.cellId}`;
  const type = cell.cellType === null ? "" : ` (${cell.cellType})`;
  if (cell.mode === "delete") return `deletes ${where}`;
  if (cell.mode === "insert") return `inserts ${plural(cell.lines, "line")}${type} after ${where}`;
  return `replaces ${where}${type} with ${plural(cell.lines, "line")}`;
}

/**
 * The one line that sums up a change, or null for a call that changes no file it names:
 * "+12 −3 in src/app.ts", "writes 12 lines to src/app.ts", "replaces cell a1 with 4 lines in x.ipynb".
 */
export function changeSummary(display: CallDisplay): string | null {
  if (display.kind === "diff") {
    const [only] = display.files;
    const where = display.files.length === 1 && only ? only.path : `${display.files.length} files`;
    return `+${display.added} ${MINUS}${display.removed} in ${where}`;
  }
  if (display.kind === "file") return `writes ${plural(display.lines, "line")} to ${display.path}`;
  if (display.kind === "cells") return `${display.cells.map(cellWords).join("; ")} in ${display.path}`;
  return null;
}

/** A file's lines, as many as its line count says (a last newline ends a line, it starts none). */
function sourceLines(text: string): TextLine[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => ({ kind: "plain" as const, text: `  ${line}` }));
}

/**
 * The lines a terminal shows for a call, or null when it shows the call's JSON instead. Diffs and
 * files are whole (what is approved is all there); argument values past `TEXT_FOLD_CHARS` are cut
 * with how much is left.
 */
export function callTextLines(display: CallDisplay): TextLine[] | null {
  if (display.kind === "diff") {
    const lines: TextLine[] = [];
    for (const file of display.files) {
      const state = file.newFile ? " (new file)" : "";
      lines.push({ kind: "heading", text: `${file.path}${state}  +${file.added} ${MINUS}${file.removed}` });
      for (const hunk of file.hunks) {
        const every = hunk.everyOccurrence ? " every occurrence" : "";
        const at = hunk.lines.some((line) => line.oldLine !== null || line.newLine !== null)
          ? ` -${hunk.oldStart} +${hunk.newStart}`
          : "";
        lines.push({ kind: "hunk", text: `@@${at}${every} @@` });
        for (const line of hunk.lines) {
          const mark = line.kind === "added" ? "+" : line.kind === "removed" ? "-" : " ";
          lines.push({ kind: line.kind, text: `${mark} ${line.text}` });
        }
      }
    }
    return lines;
  }
  if (display.kind === "file")
    return [{ kind: "heading", text: changeSummary(display) ?? "" }, ...sourceLines(display.text)];
  if (display.kind === "cells")
    return display.cells.flatMap((cell) => [
      { kind: "heading" as const, text: `${display.path}: ${cellWords(cell)}` },
      ...(cell.mode === "delete" ? [] : sourceLines(cell.source)),
    ]);
  if (display.kind === "arguments")
    return display.rows.map((row) => ({
      kind: "plain" as const,
      text: `  ${row.title === row.name ? row.name : `${row.title} (${row.name})`}: ${foldText(row.value, TEXT_FOLD_CHARS)}`,
    }));
  return null;
}
