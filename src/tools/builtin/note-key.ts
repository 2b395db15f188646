// The shape of a note key, shared by notes_read and notes_write so both accept the same names.
import * as z from "zod";
import { lazySchema } from "../../protocol/lazy-schema";

/** A note's name: 1–100 letters, digits, `_`, `.` or `-`. */
export const noteKey = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\w.-]+$/, "Use only letters, digits, '_', '.' and '-'")
    .describe("Note name: 1-100 letters, digits, '_', '.' or '-'."),
);
