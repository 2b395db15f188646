// The interaction kinds a session knows, looked up by kind or by the tool that opens them, and the
// only place the loop and the Durable Object validate requests, read responses and word results.
import type { ToolSpec } from "../model/model-client";
import { lazyToolSpec } from "../model/tool-spec";
import { OUTCOME_WORDS } from "../protocol/session/outcome-words";
import type { InteractionOutcome, PermissionMode } from "../protocol/session/session";
import type { SessionCommand } from "../protocol/wire/commands";
import { describeZodError } from "../protocol/wire/errors";
import { isSeedCommand, type PromptEventType, promptEventOf, seedAnswer } from "../protocol/wire/seed-names";
import type {
  BatchWords,
  InteractionKind,
  KindSummary,
  TimeoutContext,
  ToolResult,
} from "./define-interaction";
import { describeDuration } from "./describe-duration";
import { genericSummary } from "./kind-summary";

/**
 * A kind with its request and response types erased. Every kind is assignable to it because the
 * port declares its callbacks as methods (checked bivariantly); the registry only ever hands a kind
 * values that kind's own `request` schema produced, which keeps the erasure sound.
 */
export type AnyInteractionKind = InteractionKind<unknown, unknown>;

export type OpenResult = { ok: true; request: unknown } | { ok: false; message: string };

export type RespondResult =
  | {
      ok: true;
      response: unknown;
      outcome: Exclude<InteractionOutcome, "timed_out">;
      /** `null` when the tool itself must now run (an approved approval). */
      result: ToolResult | null;
      /** The response asks to always allow this tool for the rest of the session. */
      remember: boolean;
      /** The permission mode the response switches the session to, when it does. */
      mode?: PermissionMode;
      /** The response also stops the turn (reject and stop). */
      stopTurn?: true;
    }
  | { ok: false; message: string; fields?: Record<string, string> };

/** An answer command read for the loop: which interaction, of which kind (null: any), saying what. */
export interface CommandAnswer {
  interactionId: string;
  kind: string | null;
  response: unknown;
}

export type ChatReplyResult = { response: unknown; result: ToolResult } | null;

export interface InteractionRegistry {
  readonly kinds: readonly AnyInteractionKind[];
  get(kind: string): AnyInteractionKind | undefined;
  /** The kind a model tool call opens (`AskUserQuestion` → question), if any. */
  byToolName(toolName: string): AnyInteractionKind | undefined;
  /** The event type announcing a prompt of `kind`. */
  promptEvent(kind: string): PromptEventType;
  /** The answer a command carries (`respond`, or a seed kind's older command), or null for other commands. */
  answerOf(command: SessionCommand): CommandAnswer | null;
  /** Messages API tool definitions for the kinds the model opens by calling a tool. */
  toolSpecs(): ToolSpec[];
  /**
   * Validates a request (for tool-opened kinds, the model's tool input). The failure message lists
   * each problem as `path: problem`, for the model to read in an is_error tool result and retry;
   * it does not name the tool, so the caller can prefix it (`Invalid AskUserQuestion input: …`).
   */
  open(kind: string, rawRequest: unknown): OpenResult;
  /** `rawRequest` as an external agent may state it for `kind` (the kind's `fromAgent`), unchanged by default. */
  fromAgent(kind: string, rawRequest: unknown): unknown;
  /** Reads a device's response to a pending interaction whose stored request is `request`. */
  respond(kind: string, request: unknown, raw: unknown): RespondResult;
  /**
   * The result when the deadline passed; `timeoutMs` is how long the interaction was open (its
   * deadline minus its creation time), which the wording states. Never throws, so a deadline always drains.
   */
  timeout(kind: string, request: unknown, context: TimeoutContext): ToolResult;
  /** The result when the turn was cancelled before a response. Never throws. */
  cancelled(kind: string, request: unknown): ToolResult;
  /** The card in words (the kind's own `summary`, or a generic line). Never throws. */
  summary(kind: string, toolName: string, request: unknown): KindSummary;
  /** The words a receipt opens with: the kind's own `receipt`, or the outcome's. Never throws. */
  receipt(kind: string, outcome: InteractionOutcome, response: unknown): string;
  /** True when a chat message answers an open card of this kind. */
  readsChat(kind: string): boolean;
  /** How a chat message resolves an open card of this kind; null when the kind ignores chat. */
  chatReply(kind: string, request: unknown, text: string): ChatReplyResult;
  /** The input a person approved instead of the tool call's (the kind's `editedInput`), or null. Never throws. */
  editedInput(kind: string, response: unknown): Record<string, unknown> | null;
  /**
   * True when `response` to a card of `kind` changes the session beyond that card (the kind's
   * `beyondCard`), which only the owner may send; false for an unknown kind or one without the hook. Never throws.
   */
  beyondCard(kind: string, response: unknown): boolean;
  /** The raw response a batch decision stands for on a card of `kind`; null when such cards are never batched. */
  batchResponse(kind: string, words: BatchWords): unknown;
  /** Why the model may not open `kind` in `mode`, or null when it may. */
  refusal(kind: string, mode: PermissionMode): string | null;
  /** The kinds' notes for the system prompt in `mode`, joined; "" when none. */
  modeNotes(mode: PermissionMode): string;
}

const GENERIC_CANCELLED: ToolResult = { content: "User cancelled the turn before answering", isError: true };
const UNTIMED_TIMEOUT: ToolResult = { content: "User did not respond in time", isError: true };

function genericTimeout({ timeoutMs }: TimeoutContext): ToolResult {
  return { content: `User did not respond within ${describeDuration(timeoutMs)}`, isError: true };
}

function toolSpecOf(kind: AnyInteractionKind, toolName: string): () => ToolSpec {
  if (!kind.description)
    throw new Error(`interaction kind "${kind.kind}" opens a tool but has no description`);
  return lazyToolSpec(toolName, kind.description, kind.request);
}

/**
 * Builds a registry; throws at startup on a repeated kind or tool name, a tool-opened kind without a
 * description, or a request schema that is not an object.
 */
export function createInteractionRegistry(kinds: readonly AnyInteractionKind[]): InteractionRegistry {
  const byKind = new Map<string, AnyInteractionKind>();
  const byTool = new Map<string, AnyInteractionKind>();
  const specs: (() => ToolSpec)[] = [];
  for (const kind of kinds) {
    if (byKind.has(kind.kind)) throw new Error(`interaction kind "${kind.kind}" is registered twice`);
    byKind.set(kind.kind, kind);
    if (kind.toolName === undefined) continue;
    if (byTool.has(kind.toolName)) throw new Error(`tool "${kind.toolName}" opens two interaction kinds`);
    byTool.set(kind.toolName, kind);
    specs.push(toolSpecOf(kind, kind.toolName));
  }

  // Stored requests were validated by `open`; parsing again turns a corrupt row into a clear failure.
  const storedRequest = (kind: AnyInteractionKind, request: unknown) => kind.request.safeParse(request);

  return {
    kinds: [...kinds],
    get: (kind) => byKind.get(kind),
    byToolName: (toolName) => byTool.get(toolName),
    promptEvent: promptEventOf,

    answerOf(command) {
      if (command.type === "respond") {
        const interactionId = command.interactionId ?? command.toolCallId ?? "";
        return { interactionId, kind: null, response: command.response };
      }
      // The older commands of the seed kinds stand for a `respond` to a card of their kind.
      if (!isSeedCommand(command)) return null;
      const { toolCallId, kind, response } = seedAnswer(command);
      return byKind.has(kind) ? { interactionId: toolCallId, kind, response } : null;
    },
    // A fresh copy of each spec every time: callers may add cache_control to the last tool. Only the
    // top level is copied (every model call asks; a deep clone cost more than the rest of the
    // request): nothing changes a spec's schema.
    toolSpecs: () => specs.map((spec) => ({ ...spec() })),

    fromAgent(kindName, rawRequest) {
      const fromAgent = byKind.get(kindName)?.fromAgent;
      return fromAgent ? fromAgent(rawRequest) : rawRequest;
    },

    open(kindName, rawRequest) {
      const kind = byKind.get(kindName);
      if (kind === undefined) return { ok: false, message: `Unknown interaction kind "${kindName}"` };
      const parsed = kind.request.safeParse(rawRequest);
      if (parsed.success) return { ok: true, request: parsed.data };
      return { ok: false, message: describeZodError(parsed.error) };
    },

    respond(kindName, request, raw) {
      const kind = byKind.get(kindName);
      if (kind === undefined) return { ok: false, message: `Unknown interaction kind "${kindName}"` };
      const stored = storedRequest(kind, request);
      if (!stored.success) {
        return { ok: false, message: `The stored ${kind.kind} request is unreadable; it cannot be answered` };
      }
      const parsed = kind.parseResponse(stored.data, raw);
      if (!parsed.ok) return parsed;
      const mode = kind.setsMode?.(stored.data, parsed.response) ?? null;
      return {
        ok: true,
        response: parsed.response,
        outcome: kind.outcome(stored.data, parsed.response),
        result: kind.toResult(stored.data, parsed.response),
        remember: kind.remember?.(stored.data, parsed.response) ?? false,
        ...(mode ? { mode } : {}),
        ...(kind.stopsTurn?.(stored.data, parsed.response) ? { stopTurn: true as const } : {}),
      };
    },

    summary(kindName, toolName, request) {
      const kind = byKind.get(kindName);
      const stored = kind?.summary ? storedRequest(kind, request) : undefined;
      if (!kind?.summary || !stored?.success) return genericSummary(kindName, toolName, request);
      return kind.summary(stored.data);
    },
    receipt(kindName, outcome, response) {
      const kind = byKind.get(kindName);
      try {
        // The stored response was validated when it was given; an older shape words generically.
        return kind?.receipt?.(outcome, response ?? null) ?? OUTCOME_WORDS[outcome];
      } catch {
        return OUTCOME_WORDS[outcome];
      }
    },
    readsChat: (kindName) => byKind.get(kindName)?.chatReply !== undefined,

    chatReply(kindName, request, text) {
      const kind = byKind.get(kindName);
      const stored = kind && storedRequest(kind, request);
      if (!kind?.chatReply || !stored?.success) return null;
      return kind.chatReply(stored.data, text);
    },

    editedInput(kindName, response) {
      const editedInput = byKind.get(kindName)?.editedInput;
      try {
        return editedInput && response != null ? editedInput(response) : null;
      } catch {
        return null;
      }
    },
    beyondCard(kindName, response) {
      const beyondCard = byKind.get(kindName)?.beyondCard;
      try {
        return beyondCard?.(response) === true;
      } catch {
        // A faulty kind must not let an answer through that its own rule would refuse: treat it as beyond.
        return true;
      }
    },
    batchResponse: (kindName, words) => byKind.get(kindName)?.batchResponse?.(words) ?? null,

    refusal(kindName, mode) {
      const only = byKind.get(kindName)?.onlyInMode;
      if (only === undefined || only === mode) return null;
      return `it is only available in "${only}" permission mode, and the session is in "${mode}" mode`;
    },

    modeNotes: (mode) =>
      kinds
        .map((kind) => kind.modeNote?.(mode) ?? null)
        .filter((note): note is string => note !== null)
        .join("\n\n"),

    timeout(kindName, request, context) {
      const kind = byKind.get(kindName);
      const stored = kind && storedRequest(kind, request);
      try {
        if (kind === undefined || !stored?.success) return genericTimeout(context);
        return kind.onTimeout(stored.data, context);
      } catch {
        // A bad duration or a faulty kind must not wedge the alarm that drains deadlines.
        return UNTIMED_TIMEOUT;
      }
    },

    cancelled(kindName, request) {
      const kind = byKind.get(kindName);
      const stored = kind && storedRequest(kind, request);
      try {
        if (kind?.onCancel === undefined || !stored?.success) return GENERIC_CANCELLED;
        return kind.onCancel(stored.data);
      } catch {
        return GENERIC_CANCELLED;
      }
    },
  };
}
