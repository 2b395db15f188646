// The shape of an interaction kind (a way to pause for a person): one file per kind under kinds/.
import type * as z from "zod";
import type { InteractionOutcome, PermissionMode } from "../protocol/session/session";
import type { DecideBatchCommand } from "../protocol/wire/commands";

/** A tool result as the model will see it. */
export interface ToolResult {
  content: string;
  isError: boolean;
}

/** What a kind may need to word its timeout result. */
export interface TimeoutContext {
  /** How long the interaction was left open (`INTERACTION_TIMEOUT_MS`), in milliseconds. */
  timeoutMs: number;
}

/** A card in words, for notifications and lists: a title and one line about the request. */
export interface KindSummary {
  title: string;
  line: string;
}

/** One decision for several open cards at once ("Approve all" / "Deny all"), as the command says it. */
export interface BatchWords {
  decision: DecideBatchCommand["decision"];
  reason?: DecideBatchCommand["reason"] | undefined;
  stop?: DecideBatchCommand["stop"] | undefined;
}

/** Outcome of validating a client's response against the pending request. */
export type ParsedResponse<Response> =
  | { ok: true; response: Response }
  /** `fields` names each field that does not fit, for cards that show problems inline. */
  | { ok: false; message: string; fields?: Record<string, string> };

export interface InteractionKind<Request = unknown, Response = unknown> {
  kind: string;
  /** Set when the model opens this interaction by calling a tool of this name (e.g. AskUserQuestion). */
  toolName?: string;
  /** Tool description for the model; required with `toolName`. */
  description?: string;
  /**
   * The card in words for notifications (push, webhook); kinds without one are worded from the
   * request's `title` or `message`, or the tool's name.
   */
  summary?(request: Request): KindSummary;
  /**
   * The receipt's words for how the card ended, which every device, the terminal and notifications
   * show (followed by where it was answered); null keeps the plain outcome ("Approved"). `response`
   * is null when nobody answered (a timeout, a cancelled turn).
   */
  receipt?(outcome: InteractionOutcome, response: Response | null): string | null;
  /** Validates the request (the tool input for tool-opened kinds). */
  request: z.ZodType<Request>;
  /** Validates a client's response and checks it fits `request` (e.g. answers fit the questions). */
  parseResponse(request: Request, raw: unknown): ParsedResponse<Response>;
  /**
   * How a valid response ends the interaction (answered, approved, denied, or cancelled when the
   * person dismissed it, as an MCP `cancel` does).
   */
  outcome(request: Request, response: Response): Exclude<InteractionOutcome, "timed_out">;
  /**
   * The tool result for a response, or `null` when the tool itself must now run
   * (an approved approval).
   */
  toResult(request: Request, response: Response): ToolResult | null;
  /** True when the response asks to always allow this tool for the rest of the session. */
  remember?(request: Request, response: Response): boolean;
  /** The tool result when the deadline passes with no answer. */
  onTimeout(request: Request, context: TimeoutContext): ToolResult;
  /** The tool result when the turn is cancelled first; the registry words a generic one when absent. */
  onCancel?(request: Request): ToolResult;
  /**
   * The tool input a person approved instead of the call's own (edit, then approve), or null. The
   * loop runs it in place of the model's; it reads a stored response, so it reads it defensively.
   */
  editedInput?(response: Response): Record<string, unknown> | null;
  /**
   * The raw response one batch decision stands for on a card of this kind (it is then read like any
   * answer); absent when cards of this kind are never decided together. `BATCHED_KIND_NAMES` lists them.
   */
  batchResponse?(words: BatchWords): unknown;
  /**
   * True when a raw answer changes the session beyond this card ("Always allow", a plan approved
   * for edits), which only the session's owner may give; absent when no answer does. Reads the
   * answer as sent, before `parseResponse`, so it must take any value without throwing.
   */
  beyondCard?(response: unknown): boolean;
  /** The permission mode a response switches the session to (a plan approved for edits), if any. */
  setsMode?(request: Request, response: Response): PermissionMode | null;
  /** True when the response also stops the turn instead of letting the model continue (reject and stop). */
  stopsTurn?(request: Request, response: Response): boolean;
  /**
   * How a chat message the person sent while this card was open resolves it (the SDK's
   * `replied_in_chat`); absent when a message simply waits behind the turn.
   */
  chatReply?(request: Request, text: string): { response: Response; result: ToolResult };
  /** The only permission mode the model may open this kind in (ExitPlanMode needs `plan`). */
  onlyInMode?: PermissionMode;
  /** A note added to the system prompt in `mode` (how to use this kind's tool there), if any. */
  modeNote?(mode: PermissionMode): string | null;
  /**
   * What an agent that runs elsewhere may say in a card of this kind: its raw request with the
   * fields only Parley writes dropped or kept as the agent's claim, before the request schema reads it.
   */
  fromAgent?(rawRequest: unknown): unknown;
}

/** Identity function that ties the request and response types of a kind together. */
export function defineInteraction<Request, Response>(
  definition: InteractionKind<Request, Response>,
): InteractionKind<Request, Response> {
  return definition;
}
