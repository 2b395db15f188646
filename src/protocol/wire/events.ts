// Persistent events (server → client): past-tense facts with a `seq`, the replay source of truth.
// `EVENT_DATA` is the one table of event types and their payloads.
import * as z from "zod";
import { ApprovalCount } from "../cards/approval-count";
import { CardDeadlineTerms, EscalationRung } from "../cards/deadline-policy";
import { ApprovalCounted } from "../grants/approval-policy";
import { lazySchema } from "../lazy-schema";
import { AgentCompletedData, AgentStartedData, FRAME_MARK_FIELDS } from "../session/agents";
import {
  InteractionId,
  InteractionResolution,
  PermissionMode,
  SessionStatus,
  ToolCallId,
} from "../session/session";
import { SEED_PROMPT_EVENTS } from "./seed-names";

const Usage = lazySchema(() => z.object({ input_tokens: z.number(), output_tokens: z.number() }).nullable());

/**
 * Payload of every prompt event: `question_prompt` and `approval_required` (the seed names the
 * question and approval kinds keep) and `interaction_prompt` (any other kind). `kind` says which.
 */
export const InteractionPromptData = lazySchema(() =>
  z.object({
    /** The tool call the interaction belongs to. */
    toolCallId: ToolCallId,
    /** The id to answer it by; absent on events stored before it existed (then it is `toolCallId`). */
    interactionId: InteractionId.optional(),
    kind: z.string(),
    toolName: z.string(),
    request: z.unknown(),
    createdAt: z.number(),
    expiresAt: z.number(),
    /**
     * Set when a chat message the person sends while it is open answers it (its kind's `chatReply`),
     * so the page keeps the message box open; absent on events stored before it was sent.
     */
    readsChat: z.literal(true).optional(),
    /** What the deadline does and how far it may be extended; absent on events stored before policies. */
    deadlinePolicy: CardDeadlineTerms.optional(),
    /** Set on an approval a deployment's rule says needs several distinct approvals (none given yet). */
    approvals: ApprovalCount.optional(),
    ...FRAME_MARK_FIELDS,
  }),
);
export type InteractionPromptData = z.infer<typeof InteractionPromptData>;

/**
 * Events an agent produces (text, tool calls and results, prompts and their resolutions) and the
 * user messages and turns addressed to one carry its FrameMark — `frameId`, `agent`, `depth` — so a
 * device labels each without folding `agent_started` / `agent_completed`. Events stored before
 * marks existed lack them (then the fold says who spoke).
 */
export const EVENT_DATA = {
  /**
   * A user message was accepted; `queued` when it waits in the inbox behind a running turn. Its
   * mark is the agent it went to; a queued message has none yet (its `turn_started` says).
   */
  user_message: lazySchema(() =>
    z.object({
      messageId: z.string(),
      text: z.string(),
      queued: z.boolean(),
      /** The client's own name for its device: for display only, never who sent it. */
      deviceId: z.string().nullable(),
      /** Who sent it, as the server knows them (a person, or a link's label and id); absent before it was recorded. */
      by: z.string().nullable().optional(),
      /**
       * Set on a message to an agent that runs elsewhere: it waits for the agent's bridge until a
       * `message_delivered` names it.
       */
      awaitsAgent: z.literal(true).optional(),
      /** The sender asked to stop the running turn first. */
      interrupt: z.literal(true).optional(),
      ...FRAME_MARK_FIELDS,
    }),
  ),
  /** The bridge of an agent that runs elsewhere handed message `messageId` to its agent. */
  message_delivered: lazySchema(() => z.object({ messageId: z.string(), bridge: z.string() })),
  /** The person stopped an external session: its agent's bridge ends, and it takes no more messages. */
  session_stopped: lazySchema(() => z.object({ by: z.string().nullable() })),
  /** A turn began working on the user message `messageId`, in the conversation of the marked agent. */
  turn_started: lazySchema(() =>
    z.object({ turnId: z.string(), messageId: z.string(), ...FRAME_MARK_FIELDS }),
  ),
  /**
   * Streamed assistant text, coalesced: clients must not rely on how text is split. `call` (the
   * model call within the turn) and `offset` (where `text` starts in block `index`) match the live
   * `delta` frames; events stored before they existed lack them and simply append.
   */
  text_delta: lazySchema(() =>
    z.object({
      turnId: z.string(),
      index: z.number().int(),
      text: z.string(),
      call: z.number().int().positive().optional(),
      offset: z.number().int().nonnegative().optional(),
      ...FRAME_MARK_FIELDS,
    }),
  ),
  tool_call_start: lazySchema(() =>
    z.object({
      turnId: z.string(),
      toolCallId: ToolCallId,
      name: z.string(),
      index: z.number().int(),
      ...FRAME_MARK_FIELDS,
    }),
  ),
  /** Streamed tool input JSON, coalesced; `offset` is where `partialJson` starts in the input. */
  tool_call_delta: lazySchema(() =>
    z.object({
      toolCallId: ToolCallId,
      partialJson: z.string(),
      offset: z.number().int().nonnegative().optional(),
      ...FRAME_MARK_FIELDS,
    }),
  ),
  tool_call_end: lazySchema(() =>
    z.object({
      toolCallId: ToolCallId,
      name: z.string(),
      input: z.unknown(),
      ...FRAME_MARK_FIELDS,
    }),
  ),
  /** The result the model will see for one tool call. */
  tool_result: lazySchema(() =>
    z.object({
      toolCallId: ToolCallId,
      name: z.string(),
      content: z.string(),
      isError: z.boolean(),
      truncated: z.boolean(),
      ...FRAME_MARK_FIELDS,
    }),
  ),
  // A seed kind's older names for `interaction_prompt` (seed-names.ts).
  [SEED_PROMPT_EVENTS.question]: InteractionPromptData,
  [SEED_PROMPT_EVENTS.approval]: InteractionPromptData,
  interaction_prompt: InteractionPromptData,
  interaction_resolved: InteractionResolution,
  /** One more distinct answerer approved a card that needs several; it stays open until the last. */
  approval_counted: ApprovalCounted,
  /** A person asked for more time: the card's deadline moved to `expiresAt` ("Give me more time"). */
  interaction_extended: lazySchema(() =>
    z.object({
      toolCallId: ToolCallId,
      interactionId: InteractionId,
      kind: z.string(),
      expiresAt: z.number(),
      previousExpiresAt: z.number(),
      /** The device that asked (the client's own name for itself), and who it is as the server knows them. */
      extendedBy: z.string().nullable(),
      answeredBy: z.string().nullable().optional(),
      ...FRAME_MARK_FIELDS,
    }),
  ),
  /** Nobody had answered the card by a rung of its escalation ladder: `to` is told on each of `notify`. */
  escalated: lazySchema(() =>
    EscalationRung.extend({
      toolCallId: ToolCallId,
      interactionId: InteractionId,
      kind: z.string(),
      toolName: z.string(),
      /** The rung's place in the ladder (0 first) and how many rungs the ladder has. */
      rung: z.number().int().nonnegative(),
      of: z.number().int().positive(),
      ...FRAME_MARK_FIELDS,
    }),
  ),
  session_status: lazySchema(() =>
    z.object({
      status: SessionStatus,
      mode: PermissionMode,
      error: z.string().nullable(),
      /** Who changed the mode, as the server knows them; absent when the loop changed the status. */
      by: z.string().nullable().optional(),
    }),
  ),
  /** The server lost a model call in flight (eviction, restart) and re-issued it from the transcript. */
  turn_restarted: lazySchema(() => z.object({ turnId: z.string(), reason: z.string() })),
  error: lazySchema(() => z.object({ code: z.string(), message: z.string() })),
  /** A delegated agent took over the conversation (pushed on the stack). */
  agent_started: AgentStartedData,
  /** A delegated agent's frame ended; `result` went back to its parent as the delegation's tool_result. */
  agent_completed: AgentCompletedData,
  /** The model call failed for a passing reason (overload, rate limit, 5xx); it is re-issued at `retryAt`. */
  model_retry: lazySchema(() =>
    z.object({
      turnId: z.string(),
      attempt: z.number().int(),
      retryAt: z.number(),
      code: z.string(),
      message: z.string(),
    }),
  ),
  /** The transcript was trimmed to fit the model's context window: old tool results cleared, or older turns summarized. */
  context_compacted: lazySchema(() =>
    z.object({
      turnId: z.string(),
      action: z.enum(["cleared_tool_results", "summarized"]),
      clearedResults: z.number().int(),
      summarizedMessages: z.number().int(),
      tokensBefore: z.number().int(),
      tokensAfter: z.number().int(),
    }),
  ),
  /** Something the person should know about how the model's reply ended (refusal, output limit). */
  turn_notice: lazySchema(() => z.object({ turnId: z.string(), code: z.string(), message: z.string() })),
  /** The session has been idle long enough to be erased at `expiresAt` unless it is used before. */
  session_expiring: lazySchema(() => z.object({ expiresAt: z.number() })),
  /** A turn ended: `stopReason` is the model's, or `cancelled`, `error`, `iteration_limit`. */
  done: lazySchema(() =>
    z.object({
      turnId: z.string(),
      stopReason: z.string(),
      usage: Usage,
      /** Who cancelled or stopped the turn, as the server knows them; absent when the turn simply ended. */
      by: z.string().nullable().optional(),
    }),
  ),
} as const;

export type EventType = keyof typeof EVENT_DATA;
export type EventData<T extends EventType> = z.infer<(typeof EVENT_DATA)[T]>;

/** A stored, numbered event as it travels on the wire. */
export type SessionEvent = {
  [T in EventType]: { seq: number; at: number; type: T; data: EventData<T> };
}[EventType];

export const EVENT_TYPES = Object.keys(EVENT_DATA) as EventType[];

export { PROMPT_EVENT_TYPES, type PromptEventType } from "./seed-names";
