// Everything the agent loop is given by its host: stores, model, registries and settings.
import type { AgentRegistry } from "../agent-definitions/agent-registry";
import type { InteractionRegistry } from "../interactions/registry";
import type { ModelClient } from "../model/model-client";
import type { ToolContext } from "../tools/define-tool";
import type { ToolRegistry } from "../tools/registry";
import type { ToolStateStore } from "../tools/tool-state";
import type { ModelBudget } from "./model-budget";
import type {
  CardApprovals,
  CardDeadlinePolicies,
  Clock,
  DeadlineScheduler,
  EventSink,
  FrameStore,
  GrantGate,
  InteractionStore,
  MessageQueue,
  PermissionRuleStore,
  ToolResultStore,
  TranscriptStore,
  TurnStore,
} from "./ports";

export interface AgentSettings {
  model: string;
  maxTokens: number;
  interactionTimeoutMs: number;
  maxTurnIterations: number;
  /** How long a model call may go without progress before the alarm presumes it lost. */
  watchdogMs: number;
  /** Most forms one tool call may open with `ctx.elicit`; past it the call fails with a clear error. */
  maxFormsPerToolCall: number;
  /** Most delegated agents stacked on top of the main agent. */
  maxAgentDepth: number;
  /** First wait after a passing model failure (defaults in model-retry.ts). */
  modelRetryBaseMs?: number;
  /** How long a model outage may last before the turn fails. */
  modelRetryGiveUpMs?: number;
  /** The model's context window, in tokens (defaults in context-budget.ts). */
  contextTokens?: number;
}

/**
 * The whole set, which only the loop and the host hold: every function below them takes a
 * `Pick<AgentDeps, …>` of the stores it reads and writes, so its signature shows its effects.
 */
export interface AgentDeps {
  events: EventSink;
  transcript: TranscriptStore;
  frames: FrameStore;
  queue: MessageQueue;
  turn: TurnStore;
  interactions: InteractionStore;
  results: ToolResultStore;
  rules: PermissionRuleStore;
  deadlines: DeadlineScheduler;
  /** What each card's deadline does; absent: every card times out after its timeout. */
  cardDeadlines?: CardDeadlinePolicies;
  /** Rules that make a call wait for several distinct approvals; absent: one approval decides. */
  approvals?: CardApprovals;
  clock: Clock;
  model: ModelClient;
  /** The host's limit on model spending, when it sets one. */
  budget?: ModelBudget;
  /** The person's grants, asked before an approval opens; absent: every approval asks. */
  grants?: GrantGate;
  tools: ToolRegistry;
  kinds: InteractionRegistry;
  agents: AgentRegistry;
  /**
   * What the host gives a running tool: the loop adds `elicit`, which is its own, and scopes the
   * host's `toolState` to the tool that runs.
   */
  toolContext(signal: AbortSignal): Omit<ToolContext, "elicit" | "toolCallId" | "state"> & {
    toolState: ToolStateStore;
  };
  /**
   * Runs `work` as one storage transaction: all of its writes commit, or none do when it throws
   * (and then none of its events reach a device).
   */
  atomically<T>(work: () => T): T;
  settings: AgentSettings;
  newId(prefix: string): string;
}
