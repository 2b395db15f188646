// notes_read: lists this session's notes, or reads one in full.
import * as z from "zod";
import { lazySchema } from "../../protocol/lazy-schema";
import { defineTool } from "../define-tool";
import { noteKey } from "./note-key";

/** Enough of a first line to recognise a note by. */
const PREVIEW_CHARS = 80;

const input = lazySchema(() =>
  z.object({
    key: noteKey.optional().describe("Name of the note to read; leave out to list every note."),
  }),
);

export const notesRead = defineTool({
  name: "notes_read",
  description:
    "Read this session's notes. Without a key, lists every note with its first line; " +
    "with a key, returns that note's full text.",
  input,
  risk: "read",
  idempotent: true,
  async run({ key }, ctx) {
    if (key === undefined) {
      const notes = ctx.notes.list().toSorted((a, b) => a.key.localeCompare(b.key));
      if (notes.length === 0) return "There are no notes yet.";
      const lines = notes.map((note) => `- ${note.key}: ${preview(note.text)}`);
      return `${notes.length} note${notes.length === 1 ? "" : "s"}:\n${lines.join("\n")}`;
    }
    const note = ctx.notes.get(key);
    if (note === null) {
      const existing = ctx.notes.list().map((other) => other.key);
      const hint =
        existing.length > 0 ? ` Existing notes: ${existing.join(", ")}.` : " There are no notes yet.";
      return `There is no note named "${key}".${hint}`;
    }
    return note.text === "" ? `Note "${key}" is empty.` : note.text;
  },
});

function preview(text: string): string {
  const first = text.split("\n", 1)[0]?.trim() ?? "";
  if (first === "") return "(empty first line)";
  return first.length > PREVIEW_CHARS ? `${first.slice(0, PREVIEW_CHARS)}…` : first;
}
