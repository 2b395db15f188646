// A file diff on the page: unified on a phone, side by side on a wide screen (call-display.css picks
// one by width). Each line keeps its + or − mark, so colour is never the only sign of a change, and
// its bidi and invisible characters spelled out, so a line cannot read as other code than it is.
import type { FileDiff } from "../../../../src/display/call-display";
import type { DiffHunk, DiffLine } from "../../../../src/display/file-diff";
import { inert } from "../../../../src/protocol/text/inert-text";
import { h } from "../dom";

const MINUS = "\u2212";
const MARKS = { added: "+", removed: MINUS, context: " " } as const;
const SPOKEN = { added: "added", removed: "removed", context: "unchanged" } as const;

function lineNumber(value: number | null): HTMLElement {
  return h("span", { class: "diff-num", "aria-hidden": "true", text: value === null ? "" : String(value) });
}

/** One line: its number (whole files only), its mark, then its text; "added" or "removed" spoken. */
function lineCell(line: DiffLine | null, side: "old" | "new" | "both"): HTMLElement {
  if (line === null) return h("div", { class: "diff-line diff-empty" });
  const number = side === "new" ? line.newLine : line.oldLine;
  return h(
    "div",
    { class: `diff-line diff-${line.kind}` },
    side === "both" ? lineNumber(line.oldLine) : null,
    lineNumber(side === "both" ? line.newLine : number),
    h("span", { class: "diff-mark", "aria-hidden": "true", text: MARKS[line.kind] }),
    h("span", { class: "visually-hidden", text: `${SPOKEN[line.kind]}: ` }),
    h("code", { class: "diff-text", text: inert(line.text) }),
  );
}

function hunkHeading(hunk: DiffHunk): HTMLElement | null {
  if (!hunk.everyOccurrence) return null;
  return h("p", { class: "diff-hunk-note", text: "Replaces every occurrence" });
}

function unified(hunk: DiffHunk): HTMLElement {
  return h("div", { class: "diff-unified" }, ...hunk.lines.map((line) => lineCell(line, "both")));
}

/** Old and new side by side: unchanged lines on both sides, a run of removals beside the additions after it. */
function sideBySide(hunk: DiffHunk): HTMLElement {
  const rows: HTMLElement[] = [];
  const { lines } = hunk;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as DiffLine;
    if (line.kind === "context") {
      rows.push(h("div", { class: "diff-row" }, lineCell(line, "old"), lineCell(line, "new")));
      i++;
      continue;
    }
    const removed: DiffLine[] = [];
    const added: DiffLine[] = [];
    while (i < lines.length && lines[i]?.kind === "removed") removed.push(lines[i++] as DiffLine);
    while (i < lines.length && lines[i]?.kind === "added") added.push(lines[i++] as DiffLine);
    for (let row = 0; row < Math.max(removed.length, added.length); row++)
      rows.push(
        h(
          "div",
          { class: "diff-row" },
          lineCell(removed[row] ?? null, "old"),
          lineCell(added[row] ?? null, "new"),
        ),
      );
  }
  return h("div", { class: "diff-split" }, ...rows);
}

/** "+12 −3" with its meaning spoken. */
export function countsView(added: number, removed: number): HTMLElement {
  return h(
    "span",
    { class: "diff-counts" },
    h("span", { class: "diff-count-added", "aria-hidden": "true", text: `+${added}` }),
    " ",
    h("span", { class: "diff-count-removed", "aria-hidden": "true", text: `${MINUS}${removed}` }),
    h("span", { class: "visually-hidden", text: `${added} lines added, ${removed} removed` }),
  );
}

/** A file's diff: its path and counts, then each hunk drawn both ways for the stylesheet to choose. */
export function fileDiffView(file: FileDiff): HTMLElement {
  return h(
    "figure",
    { class: "call-diff" },
    h(
      "figcaption",
      { class: "call-caption" },
      file.newFile ? "New file " : "Edit ",
      h("code", { text: inert(file.path) }),
      " ",
      countsView(file.added, file.removed),
    ),
    ...file.hunks.map((hunk) =>
      // Focusable: a long hunk scrolls, and a keyboard must be able to scroll it.
      h(
        "div",
        { class: "diff-hunk", role: "group", tabindex: "0", "aria-label": `Changes to ${file.path}` },
        hunkHeading(hunk),
        unified(hunk),
        sideBySide(hunk),
      ),
    ),
    file.hunks.length === 0 ? h("p", { class: "diff-hunk-note", text: "No lines change" }) : null,
  );
}
