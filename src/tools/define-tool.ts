// The shape of a tool: one file per tool under builtin/, each a `defineTool({...})` call.
import type { z } from "zod";

/** How dangerous a tool is; the permission policy decides from this (DESIGN §5). */
export type ToolRisk = "read" | "edit" | "network" | "execute";

/** A session note, stored in the session's own SQLite. */
export interface Note {
  key: string;
  text: string;
  updatedAt: number;
}

/** Session-scoped notes storage, supplied by the Durable Object. */
export interface NotesStore {
  list(): Note[];
  get(key: string): Note | null;
  put(key: string, text: string): Note;
  delete(key: string): boolean;
}

/** What a running tool may use; everything is injected so tools stay testable and Cloudflare-free. */
export interface ToolContext {
  signal: AbortSignal;
  notes: NotesStore;
  fetch: typeof fetch;
  now(): number;
}

/** A tool's own answer: plain text, or text flagged as an error the model should see as such. */
export type ToolOutput = string | { content: string; isError?: boolean };

export interface ToolDefinition<Input extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: Input;
  risk: ToolRisk;
  /** Safe to run twice: an interrupted idempotent tool is re-run, others get an error result. */
  idempotent: boolean;
  run(input: z.infer<Input>, ctx: ToolContext): Promise<ToolOutput>;
}

/** Identity function that keeps the input type of `run` tied to the zod schema. */
export function defineTool<Input extends z.ZodType>(
  definition: ToolDefinition<Input>,
): ToolDefinition<Input> {
  return definition;
}
