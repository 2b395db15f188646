// notes_write: saves a note in this session's own storage, replacing any note of the same name.
import * as z from "zod";
import { lazySchema } from "../../protocol/lazy-schema";
import { defineTool } from "../define-tool";
import { noteKey } from "./note-key";

/** Notes live in a SQLite row next to the transcript; this keeps each one far below the row limit. */
export const MAX_NOTE_CHARS = 20_000;

const input = lazySchema(() =>
  z.object({
    key: noteKey,
    text: z
      .string()
      .max(MAX_NOTE_CHARS)
      .describe(`The note's full text (at most ${MAX_NOTE_CHARS} characters).`),
  }),
);

export const notesWrite = defineTool({
  name: "notes_write",
  description:
    "Save a note for later in this session under a key, replacing any existing note with that key. " +
    "Use notes_read to see existing notes.",
  input,
  risk: "edit",
  // A put replaces the whole note, so running the same call twice leaves the same state;
  // re-running it after an interruption is therefore safe.
  idempotent: true,
  async run({ key, text }, ctx) {
    const replaced = ctx.notes.get(key) !== null;
    ctx.notes.put(key, text);
    return `${replaced ? "Replaced" : "Saved"} note "${key}" (${text.length} characters).`;
  },
});
