// A tool call's arguments as rows people can read: each titled from the tool's input schema where
// there is one (else by its name), its value as text, and long values marked to be folded.
import { MAX_TITLE_CHARS } from "./schema-titles";

export interface ArgumentRow {
  /** The argument's own name, always shown: a schema's title is the server's claim about it. */
  name: string;
  /** The schema's title (or description) for it; its name when the tool has no schema. */
  title: string;
  /** A string as it is; anything else as indented JSON. */
  value: string;
  /** Too long to show open: the page folds it, chat and terminal cut it and say how much is left. */
  folded: boolean;
}

/** Longest value shown open, in characters and in lines. */
export const FOLD_CHARS = 200;
const FOLD_LINES = 4;

function valueText(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? String(value));
}

/**
 * The rows of a call's arguments, in the order the call gives them; null when the input is not an
 * object of arguments. `titles` maps argument names to the schema's words for them.
 */
export function argumentRows(
  input: unknown,
  titles: Readonly<Record<string, string>> = {},
): ArgumentRow[] | null {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return null;
  return Object.entries(input).map(([name, raw]) => {
    const value = valueText(raw);
    const title = Object.hasOwn(titles, name) ? (titles[name] ?? "").slice(0, MAX_TITLE_CHARS) : "";
    return {
      name,
      title: title.trim() === "" ? name : title,
      value,
      folded: value.length > FOLD_CHARS || value.split("\n").length > FOLD_LINES,
    };
  });
}

/**
 * `text` cut to at most `max` characters with "…(N more chars)" saying what was left out; never a
 * silent cut, and never half of a surrogate pair.
 */
export function foldText(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max);
  const last = text.charCodeAt(cut - 1);
  if (cut > 0 && last >= 0xd800 && last <= 0xdbff) cut--;
  return `${text.slice(0, cut)}…(${text.length - cut} more chars)`;
}
