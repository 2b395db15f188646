// The shape of a tool: one file per tool under builtin/, each a `defineTool({...})` call.
import type * as z from "zod";
import type { ElicitRequestParams, ElicitResult } from "../protocol/forms/elicitation";
import type { ToolState } from "./tool-state";

/** How dangerous a tool is; the permission policy decides from this (docs/architecture.md#interactions-and-permission-modes). */
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
  /** This tool's own storage in the session (tool-state.ts), apart from every other tool's. */
  state: ToolState;
  fetch: typeof fetch;
  now(): number;
  /** The id of the tool call being run, for tools that keep state of their own per call (MCP). */
  toolCallId: string;
  /**
   * Asks the person to fill in a form (MCP elicitation) and returns their answer. Nothing waits in
   * memory: the first time, the form is stored and the run ends (by throwing a `ToolPause`, which a
   * tool must let through); once it is resolved, the tool runs again from the start and its k-th
   * `elicit` returns the k-th recorded answer. So a tool that elicits must do the same things up to
   * each `elicit`, and keep its side effects after the last one. Timeouts and a cancelled turn come
   * back as `{ action: "cancel" }`. A URL request (`mode: "url"`) sends the person to a page instead;
   * accepting it returns no values (`content` is empty), since they stay on that page.
   */
  elicit(params: ElicitRequestParams): Promise<ElicitResult>;
}

/** Ends a run that waits for a person (see `ToolContext.elicit`); tools must not catch it. */
export class ToolPause extends Error {
  override readonly name = "ToolPause";
}

/** An image a tool hands the model with its result (base64, one of the types the Messages API takes). */
export interface ToolImage {
  mediaType: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
  data: string;
}

/** A tool's own answer: plain text, or text flagged as an error the model should see as such. */
export type ToolOutput = string | { content: string; isError?: boolean; images?: ToolImage[] };

export interface ToolDefinition<Input extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: Input;
  risk: ToolRisk;
  /** Safe to run twice: an interrupted idempotent tool is re-run, others get an error result. */
  idempotent: boolean;
  run(input: z.infer<Input>, ctx: ToolContext): Promise<ToolOutput>;
  /** The JSON schema the model sees, for tools that bring their own (MCP tools); else built from `input`. */
  inputSchema?: Record<string, unknown>;
  /** Where an MCP tool comes from, for approval cards: the server, its own tool name, title and annotations. */
  mcp?: McpToolOrigin;
}

/** The facts about an MCP tool that a person approving a call should see. */
export interface McpToolOrigin {
  server: string;
  tool: string;
  title?: string;
  annotations?: Record<string, unknown>;
  /** Whether the deployment takes this server's annotations at their word (`trustAnnotations`). */
  trusted?: boolean;
  /** Argument name → the input schema's title (or description) for it, to title a card's rows. */
  fields?: Record<string, string>;
}

/** Identity function that keeps the input type of `run` tied to the zod schema. */
export function defineTool<Input extends z.ZodType>(
  definition: ToolDefinition<Input>,
): ToolDefinition<Input> {
  return definition;
}
