// What a tool call looks like to the person approving it, as one display model every device draws:
// file edits as diffs, a written file whole with its line count, notebook edits by cell, an MCP
// call's arguments as titled rows, and anything else (or anything malformed) as its JSON.
import { type ArgumentRow, argumentRows } from "./call-arguments";
import { countChanges, type DiffHunk, diffHunks, lineCount } from "./file-diff";

export interface FileDiff {
  path: string;
  /** The file does not exist yet (an ACP diff without old text). */
  newFile: boolean;
  hunks: DiffHunk[];
  added: number;
  removed: number;
}

export interface CellEdit {
  /** The cell's id, or null for a new cell placed first. */
  cellId: string | null;
  mode: "replace" | "insert" | "delete";
  cellType: "code" | "markdown" | null;
  source: string;
  lines: number;
}

export type CallDisplay =
  | { kind: "diff"; files: FileDiff[]; added: number; removed: number }
  | { kind: "file"; path: string; lines: number; text: string }
  | { kind: "cells"; path: string; cells: CellEdit[] }
  | { kind: "arguments"; rows: ArgumentRow[] }
  | { kind: "json" };

/** What the display reads of a call: its tool, its input, and the approval request around it. */
export interface DisplayedCall {
  toolName: string;
  input: unknown;
  /** The approval request: its `mcp.fields` (argument titles) and `acp.content` (diffs) are read. */
  request?: unknown;
}

const JSON_DISPLAY: CallDisplay = { kind: "json" };

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function path(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** A whole file's diff; a null `oldText` is a file that does not exist yet. */
export function fileDiff(path: string, oldText: string | null, newText: string, whole = true): FileDiff {
  const hunks = diffHunks(oldText ?? "", newText, whole);
  return { path, newFile: oldText === null, hunks, ...countChanges(hunks) };
}

function diffOf(files: FileDiff[]): CallDisplay {
  let added = 0;
  let removed = 0;
  for (const file of files) {
    added += file.added;
    removed += file.removed;
  }
  return { kind: "diff", files, added, removed };
}

/** One Claude Code edit ({ old_string, new_string, replace_all? }) as hunks, or null when malformed. */
function editHunks(edit: unknown): DiffHunk[] | null {
  const before = text(field(edit, "old_string"));
  const after = text(field(edit, "new_string"));
  const every = field(edit, "replace_all");
  if (before === null || after === null || (every !== undefined && typeof every !== "boolean")) return null;
  const hunks = diffHunks(before, after, false);
  return every === true ? hunks.map((hunk) => ({ ...hunk, everyOccurrence: true })) : hunks;
}

function claudeEdit(toolName: string, input: unknown): CallDisplay | null {
  const file = path(field(input, "file_path"));
  if (file === null) return null;
  const edits = toolName === "Edit" ? [input] : field(input, "edits");
  if (!Array.isArray(edits) || edits.length === 0) return null;
  const hunks: DiffHunk[] = [];
  for (const edit of edits) {
    const one = editHunks(edit);
    if (one === null) return null;
    hunks.push(...one);
  }
  return diffOf([{ path: file, newFile: false, hunks, ...countChanges(hunks) }]);
}

function claudeWrite(input: unknown): CallDisplay | null {
  const file = path(field(input, "file_path"));
  const content = text(field(input, "content"));
  if (file === null || content === null) return null;
  return { kind: "file", path: file, lines: lineCount(content), text: content };
}

const EDIT_MODES = ["replace", "insert", "delete"] as const;
const CELL_TYPES = ["code", "markdown"] as const;

function claudeNotebookEdit(input: unknown): CallDisplay | null {
  const notebook = path(field(input, "notebook_path"));
  const source = text(field(input, "new_source"));
  const cellId = field(input, "cell_id") ?? null;
  const mode = field(input, "edit_mode") ?? "replace";
  const cellType = field(input, "cell_type") ?? null;
  if (notebook === null || source === null || (cellId !== null && typeof cellId !== "string")) return null;
  if (!EDIT_MODES.includes(mode as never) || (cellType !== null && !CELL_TYPES.includes(cellType as never)))
    return null;
  const cell: CellEdit = {
    cellId,
    mode: mode as CellEdit["mode"],
    cellType: cellType as CellEdit["cellType"],
    source,
    lines: lineCount(source),
  };
  return { kind: "cells", path: notebook, cells: [cell] };
}

/** An ACP request's diff content blocks as file diffs; null when it carries none. */
function acpDiffs(request: unknown): CallDisplay | null {
  const content = field(field(request, "acp"), "content");
  if (!Array.isArray(content)) return null;
  const files: FileDiff[] = [];
  for (const block of content) {
    if (field(block, "type") !== "diff") continue;
    const file = path(field(block, "path"));
    const oldText = field(block, "oldText");
    const newText = text(field(block, "newText"));
    if (file === null || newText === null || (oldText !== null && typeof oldText !== "string")) return null;
    files.push(fileDiff(file, oldText, newText, true));
  }
  return files.length > 0 ? diffOf(files) : null;
}

/** Argument titles an approval request carries for an MCP tool (from the server's input schema). */
function mcpTitles(request: unknown): Record<string, string> | null {
  const mcp = field(request, "mcp");
  if (mcp === undefined) return null;
  const fields = field(mcp, "fields");
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return {};
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

/** An MCP call's input as titled rows: by the request's schema titles, else by argument names. */
function mcpArguments(call: DisplayedCall): CallDisplay | null {
  const titles = mcpTitles(call.request);
  if (titles === null && !call.toolName.startsWith("mcp__")) return null;
  const rows = argumentRows(call.input, titles ?? {});
  return rows === null || rows.length === 0 ? null : { kind: "arguments", rows };
}

/**
 * The display model of a call. Never throws: an input that is not what its tool takes (or a tool
 * it does not know) shows as JSON, so what a person approves is always all there.
 */
export function callDisplay(call: DisplayedCall): CallDisplay {
  const { toolName, input } = call;
  const shown =
    acpDiffs(call.request) ??
    (toolName === "Edit" || toolName === "MultiEdit"
      ? claudeEdit(toolName, input)
      : toolName === "Write"
        ? claudeWrite(input)
        : toolName === "NotebookEdit"
          ? claudeNotebookEdit(input)
          : mcpArguments(call));
  return shown ?? JSON_DISPLAY;
}
