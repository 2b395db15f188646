// What an approval card shows for a call (src/display/call-display.ts drew the model): diffs, a file
// written whole with its line count, notebook cells, an MCP call's arguments as a titled table with
// long values folded, or null where the card keeps the call's JSON. Source text has its bidi and
// invisible characters spelled out (src/protocol/text/inert-text.ts), as every device shows agent text.
import type { ArgumentRow } from "../../../../src/display/call-arguments";
import type { CallDisplay, CellEdit } from "../../../../src/display/call-display";
import { inert } from "../../../../src/protocol/text/inert-text";
import { h } from "../dom";
import { fileDiffView } from "./diff-view";

/** Characters of a folded value shown in its summary line. */
const PREVIEW_CHARS = 60;

function lines(count: number): string {
  return `${count} line${count === 1 ? "" : "s"}`;
}

/** A block of source, scrollable by keyboard too. */
function source(text: string, label: string): HTMLElement {
  return h("pre", { class: "call-source", tabindex: "0", "aria-label": label, text: inert(text) });
}

function cellCaption(cell: CellEdit): string {
  const where = cell.cellId === null ? "a new first cell" : `cell ${cell.cellId}`;
  const type = cell.cellType === null ? "" : ` (${cell.cellType})`;
  if (cell.mode === "delete") return `Deletes ${where}`;
  if (cell.mode === "insert") return `Inserts ${lines(cell.lines)}${type} after ${where}`;
  return `Replaces ${where}${type} with ${lines(cell.lines)}`;
}

function valueView(row: ArgumentRow): HTMLElement {
  const value = inert(row.value);
  if (!row.folded) return h("pre", { class: "argument-value", text: value });
  const firstLine = value.split("\n", 1)[0] ?? "";
  const preview =
    firstLine.length > PREVIEW_CHARS ? `${firstLine.slice(0, PREVIEW_CHARS)}…` : `${firstLine}…`;
  return h(
    "details",
    { class: "argument-fold" },
    h(
      "summary",
      {},
      h("code", { text: preview }),
      h("span", { class: "argument-size", text: ` ${row.value.length} characters, show all` }),
    ),
    h("pre", { class: "argument-value", tabindex: "0", "aria-label": `All of ${row.name}`, text: value }),
  );
}

function argumentsView(rows: ArgumentRow[]): HTMLElement {
  return h(
    "table",
    { class: "call-arguments" },
    h("caption", { class: "call-caption", text: "Arguments" }),
    h(
      "thead",
      {},
      h("tr", {}, h("th", { scope: "col", text: "Argument" }), h("th", { scope: "col", text: "Value" })),
    ),
    h(
      "tbody",
      {},
      ...rows.map((row) =>
        h(
          "tr",
          {},
          // The title is the server's word for it; the argument's own name is always beside it.
          h(
            "th",
            { scope: "row" },
            row.title === row.name ? null : h("span", { class: "argument-title", text: inert(row.title) }),
            h("code", { class: "argument-name", text: inert(row.name) }),
          ),
          h("td", {}, valueView(row)),
        ),
      ),
    ),
  );
}

/** The card's view of a call, or null to show its JSON. */
export function callView(display: CallDisplay): HTMLElement | null {
  switch (display.kind) {
    case "diff":
      return h("div", { class: "call-view" }, ...display.files.map(fileDiffView));
    case "file":
      return h(
        "figure",
        { class: "call-view call-file" },
        h(
          "figcaption",
          { class: "call-caption" },
          "Writes ",
          h("code", { text: inert(display.path) }),
          ` · ${lines(display.lines)}`,
        ),
        source(display.text, `New content of ${display.path}`),
      );
    case "cells":
      return h(
        "div",
        { class: "call-view" },
        ...display.cells.map((cell) =>
          h(
            "figure",
            { class: "call-cell" },
            h(
              "figcaption",
              { class: "call-caption" },
              h("code", { text: inert(display.path) }),
              `: ${cellCaption(cell)}`,
            ),
            cell.mode === "delete" ? null : source(cell.source, `New source of ${cellCaption(cell)}`),
          ),
        ),
      );
    case "arguments":
      return h("div", { class: "call-view" }, argumentsView(display.rows));
    default:
      return null;
  }
}
