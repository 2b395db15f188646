// What the agent loop needs from its host, as small synchronous interfaces. The Durable Object
// implements them over SQLite (src/session); nothing here knows about Cloudflare.

import type { ToolResult } from "../interactions/define-interaction";
import type { ContentBlockParam, MessageParam } from "../model/model-client";
import type { CardDeadlineTerms } from "../protocol/cards/deadline-policy";
import type { Decider } from "../protocol/cards/decider";
import type { AgentFrameView, AgentOutcome } from "../protocol/session/agents";
import type {
  InteractionOutcome,
  InteractionView,
  PermissionMode,
  SessionStatus,
} from "../protocol/session/session";
import type { EventData, EventType, SessionEvent } from "../protocol/wire/events";
import type { DeltaFrame } from "../protocol/wire/frames";
import type { ToolImage } from "../tools/define-tool";

/** Appends a fact to the event log and broadcasts it (validate → persist → broadcast). */
export interface EventSink {
  append<T extends EventType>(type: T, data: EventData<T>): SessionEvent;
  /**
   * Sends streamed model output to every device now, without storing it
   * (docs/architecture.md#live-deltas), and says how many devices it went to: the more there are,
   * the longer the next live frame gathers (src/agent/live-batcher.ts).
   */
  sendLive(frame: DeltaFrame): number;
  /** True while someone reads stored events only, and so sees streamed text only once stored. */
  readsStoredOnly?(): boolean;
}

export interface StoredMessage {
  id: number;
  role: "user" | "assistant";
  content: ContentBlockParam[];
}

/**
 * The transcript of the frame on top of the agent stack (the main agent's when the stack is
 * empty): each delegated agent has its own conversation, and the loop only ever talks to the top.
 */
export interface TranscriptStore {
  messages(): MessageParam[];
  /** One frame's transcript, whether or not it is on top. */
  messagesOf(frameId: string): MessageParam[];
  last(): StoredMessage | null;
  /** Appends a message; a user message after a user message is merged into it (the API alternates roles). */
  append(role: "user" | "assistant", content: ContentBlockParam[]): void;
  /** Replaces the current frame's transcript (clearing old tool results, compaction). */
  rewrite(messages: MessageParam[]): void;
}

export interface QueuedMessage {
  id: string;
  text: string;
}

/** The user messages a session holds until its running turn ends (the session's queue, not the person's Inbox). */
export interface MessageQueue {
  push(message: QueuedMessage): void;
  shift(): QueuedMessage | null;
  size(): number;
}

/** A model call that failed for a passing reason, waiting to be re-issued at `at`. */
export interface ModelRetry {
  attempt: number;
  /** When the first failure of this outage happened; the turn gives up some time after. */
  since: number;
  at: number;
  code: string;
  message: string;
}

/** The current turn, persisted so any instance can pick it up. */
export interface TurnRecord {
  id: string;
  messageId: string;
  iterations: number;
  usage: { input_tokens: number; output_tokens: number };
  /** A person was asked something during this turn (drives the 1-hour cache TTL). */
  pausedForPerson: boolean;
  /** A model call was started and has not finished: found true by a new run, that call was lost. */
  callInFlight: boolean;
  /** Lost or stalled model calls re-issued in this turn; past a limit the turn fails instead. */
  restarts: number;
  /** Set while the turn waits out a model outage. */
  retry?: ModelRetry;
  /** The last reply stopped with `pause_turn`: the model is called again to continue it. */
  continuePaused?: boolean;
}

export interface TurnStore {
  status(): SessionStatus;
  mode(): PermissionMode;
  current(): TurnRecord | null;
  /** Saves status and broadcasts `session_status` when it changed. */
  setStatus(status: SessionStatus, error?: string | null): void;
  /** Saves the mode and broadcasts `session_status`, naming `by` (who changed it) when known. */
  setMode(mode: PermissionMode, by?: string | null): void;
  /** Saves the current turn (starting one, or recording its progress). */
  save(turn: TurnRecord): void;
  end(): void;
  /** Next index for the model-call counter (scripted models pick their reply with it). */
  nextModelCall(): number;
  systemPrompt(): string;
}

export interface InteractionRecord {
  /** The interaction's own id: the tool call's id for its own interaction, a derived one for a tool's forms. */
  id: string;
  /** The tool call it belongs to. */
  toolCallId: string;
  /** The frame whose tool call it belongs to (MAIN_FRAME_ID for the main agent). */
  frameId: string;
  kind: string;
  toolName: string;
  request: unknown;
  status: InteractionView["status"];
  response: unknown;
  deadline: number;
  createdAt: number;
  resolvedAt: number | null;
  resolvedBy: string | null;
  /** Who answered, as the server knows them (InteractionResolution.answeredBy). */
  answeredBy?: string | null;
  /** Who decided, structured (InteractionResolution.decider); null while pending or on older rows. */
  decider?: Decider | null;
}

export interface InteractionStore {
  get(id: string): InteractionRecord | null;
  pending(): InteractionRecord[];
  create(
    record: Omit<
      InteractionRecord,
      "status" | "response" | "resolvedAt" | "resolvedBy" | "answeredBy" | "decider"
    >,
  ): void;
  /** Compare-and-set from `pending`; false when another resolution won. */
  resolve(
    id: string,
    outcome: InteractionOutcome,
    response: unknown,
    resolvedBy: string | null,
    at: number,
    decider?: Decider | null,
  ): boolean;
  /** Pending interactions whose deadline is at or before `now`. */
  due(now: number): InteractionRecord[];
}

export interface ToolResultRecord extends ToolResult {
  toolCallId: string;
  name: string;
  truncated: boolean;
  /** Images shown to the model after the text (MCP tools that return small images). */
  images?: ToolImage[];
}

export interface ToolResultStore {
  get(toolCallId: string): ToolResultRecord | null;
  put(record: ToolResultRecord): void;
  /** Marks a tool as started, so a restart can tell an interrupted run from one never begun. */
  markStarted(toolCallId: string): void;
  /** Forgets the mark of a run that ended cleanly to wait for a form (it runs again from the start). */
  clearStarted(toolCallId: string): void;
  wasStarted(toolCallId: string): boolean;
}

export interface PermissionRuleStore {
  allowed(): Set<string>;
  allow(toolName: string): void;
}

/** Re-arms the single alarm to the earliest live deadline (interactions, watchdog). */
export interface DeadlineScheduler {
  rearm(): void;
  watchdog(): number | null;
  setWatchdog(at: number | null): void;
  /** A model call's stream flows (true) or ended (false): work that can wait keeps off its live frames. */
  setStreaming(streaming: boolean): void;
}

/** A card's deadline as its policy set it, and the terms every device shows with it. */
export interface OpenedDeadline {
  expiresAt: number;
  terms: CardDeadlineTerms;
}

/**
 * Deadline policies (docs/inbox.md#the-inbox): the host chooses each card's policy as it opens, stores it with
 * the card, and says what its deadline does. Without one, every card times out after its timeout.
 */
export interface CardDeadlinePolicies {
  /** Chooses and stores the policy of a card being opened; returns its deadline. */
  open(card: {
    id: string;
    kind: string;
    toolName: string;
    createdAt: number;
    timeoutMs: number;
  }): OpenedDeadline;
  /** How a passed deadline resolves the card: timed out (deny, keep waiting) or cancelled. */
  onDeadline(id: string): "timed_out" | "cancelled";
}

export interface Clock {
  now(): number;
}

/** A delegated agent's frame: who it is, which call it answers, and how far it got. */
export interface FrameRecord extends AgentFrameView {
  /** The frame that delegated (MAIN_FRAME_ID for depth 1). */
  parentFrameId: string;
  status: "active" | AgentOutcome;
  /** Model calls this frame has made, over its whole life (its cap is per frame, not per turn). */
  iterations: number;
  startedAt: number;
  endedAt: number | null;
}

/** The agent stack: frames of delegated agents, persisted so a restart resumes at any depth. */
export interface FrameStore {
  /** Active frames, bottom first; empty when the main agent holds the conversation. */
  stack(): FrameRecord[];
  /** The top active frame, or null for the main agent. */
  top(): FrameRecord | null;
  get(frameId: string): FrameRecord | null;
  push(frame: Omit<FrameRecord, "status" | "iterations" | "endedAt">): void;
  /** Counts one model call made by the frame. */
  countModelCall(frameId: string): void;
  /** Compare-and-set from `active`; false when the frame had already ended. */
  end(frameId: string, outcome: AgentOutcome, at: number): boolean;
}

/** What one of the person's grants decided for an approval, before its card would open. */
export interface GrantDecision {
  effect: "allow" | "deny";
  grantId: string;
  rule: string;
  reason: string | null;
}

/** The person's grants, asked once for a step's calls that would otherwise open an approval. */
export interface GrantGate {
  /** One decision per call, in order; null where a person must be asked. */
  decide(calls: { toolName: string; input: unknown }[]): Promise<(GrantDecision | null)[]>;
}

/** One distinct person's approval of a card that needs several. */
export interface CardApprover {
  /** Tells approvers apart (approverKey): the person the answer counts as. */
  key: string;
  decider: Decider;
  at: number;
}

/**
 * The deployment's rules that make some calls wait for several distinct approvals
 * (`APPROVAL_POLICIES`), and each such card's approvals so far.
 */
export interface CardApprovals {
  /** How many distinct approvals a call needs: 1 unless a rule covers it. */
  needed(call: { toolName: string; input: unknown }): number;
  /** Records that a new card needs `needed` (> 1) approvals. */
  open(interactionId: string, needed: number): void;
  /** A card's needs and approvals so far; null for a card that needs one. */
  of(interactionId: string): { needed: number; approvers: CardApprover[] } | null;
  /** Adds one person's approval (the caller checked it is a new person). */
  add(interactionId: string, approver: CardApprover): void;
  /** The session's creator, whom an answer that names no person counts as (approverKey). */
  owner(): string | null;
  /**
   * Why no approval after the first can come here (the deployment knows only one person), shown on
   * every such card; null where another person can approve.
   */
  readonly unreachable: string | null;
}
