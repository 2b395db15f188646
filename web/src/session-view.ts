// The browser's view model of one session: what the transcript, cards and status show. The reducer
// in session-state.ts builds it from hello snapshots and numbered events.
import type {
  AgentFrameView,
  InteractionPromptData,
  InteractionResolution,
  PermissionMode,
  SessionStatus,
} from "../../src/protocol/index";
import type { TextPiece } from "../../src/protocol/text/text-merge";

/** A prompt the agent is (or was) waiting on, of any kind; `id` is what answers address. */
export type InteractionState = InteractionPromptData & {
  id: string;
  resolution: InteractionResolution | null;
};

/** Which agent an item belongs to: null for the main agent, else the delegated agent's name. */
export type Speaker = string | null;

export interface UserItem {
  kind: "user";
  id: string;
  messageId: string;
  text: string;
  deviceId: string | null;
  /** Who sent it, as the server knows them (a person, or a link's label and id). */
  by?: string | null;
  /** The agent the message was addressed to (the top of the stack when it was sent). */
  agent: Speaker;
  /**
   * For an agent that runs elsewhere: null while the message waits for the agent, then the bridge
   * that delivered it; absent for Parley's own agent.
   */
  delivery?: string | null;
  /** The sender asked to stop the running turn first. */
  interrupt?: true;
}
export interface AssistantItem {
  kind: "assistant";
  id: string;
  turnId: string;
  /** The block's text from its start, exact: live and stored copies are merged by offset. */
  text: string;
  /** Pieces that arrived past a gap in `text` (a reconnect mid-stream), shown once it fills. */
  ahead: readonly TextPiece[];
  streaming: boolean;
  agent: Speaker;
}
export type ToolPhase = "streaming" | "pending" | "done" | "error";
export interface ToolItem {
  kind: "tool";
  id: string;
  toolCallId: string;
  name: string;
  /** Raw argument JSON as it streams; `input` replaces it once the call is complete. */
  argsJson: string;
  /** Argument pieces that arrived past a gap in `argsJson`. */
  argsAhead: readonly TextPiece[];
  input: unknown;
  phase: ToolPhase;
  result: { content: string; isError: boolean; truncated: boolean } | null;
  /** The prompts this call waited on, in order: its own (a question, an approval) or forms it opened. */
  interactions: readonly InteractionState[];
  agent: Speaker;
}
export interface NoticeItem {
  kind: "notice";
  id: string;
  level: "info" | "error";
  text: string;
}
export type TranscriptItem = UserItem | AssistantItem | ToolItem | NoticeItem;

export interface SessionView {
  sessionId: string | null;
  /** This device as the server named it in `hello`; receipts compare `resolvedBy` with it. */
  deviceId: string | null;
  connectedOnce: boolean;
  status: SessionStatus;
  mode: PermissionMode;
  error: string | null;
  /** Whether Parley's demo model answers in this session: never in an external agent's session. */
  demo: boolean;
  /** The agent that runs elsewhere and opened this session; null for Parley's own agent. */
  agent: { name: string; title: string | null; folder?: string; machine?: string } | null;
  model: string;
  /** Server clock minus local clock at the last hello; countdowns add it to `Date.now()`. */
  clockSkewMs: number;
  lastSeq: number;
  order: readonly string[];
  items: ReadonlyMap<string, TranscriptItem>;
  /** Messages waiting behind a running turn, oldest first. */
  queued: readonly UserItem[];
  lastUserText: string | null;
  /** Items of the model call in flight, keyed by content block index; dropped on `turn_restarted`. */
  liveBlocks: Readonly<Record<number, string>>;
  /** Delegated agents holding the conversation now, bottom first (breadcrumb, composer). */
  stack: readonly AgentFrameView[];
  /** The event seq the hello snapshot's stack describes; agent events up to it are already in `stack`. */
  stackAsOf: number;
  /** The stack as of the event being applied, folded from events alone, to label each item. */
  speakers: readonly AgentFrameView[];
  /** Set while the turn waits out a model outage: when the call is re-issued (server clock). */
  modelRetry: { attempt: number; retryAt: number } | null;
}

export function initialView(): SessionView {
  return {
    sessionId: null,
    deviceId: null,
    connectedOnce: false,
    status: "idle",
    mode: "default",
    error: null,
    demo: false,
    agent: null,
    model: "",
    clockSkewMs: 0,
    lastSeq: 0,
    order: [],
    items: new Map(),
    queued: [],
    lastUserText: null,
    liveBlocks: {},
    stack: [],
    stackAsOf: 0,
    speakers: [],
    modelRetry: null,
  };
}
