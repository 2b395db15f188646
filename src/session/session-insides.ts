// What a test may reach inside a session's instance, through its one test-only door
// (`SessionObject[INSIDE]`, src/object-shell.ts): the stores, and parts a test swaps for smaller ones.
import type { ModelClient } from "../model/model-client";
import type { ObjectInsides } from "../object-shell";
import type { EventStreams } from "../objects/event-streams";
import type { ReplayBudget } from "../objects/replay-budget";
import type { HttpCommandBudget } from "./budgets/http-command-budget";
import type { SessionState } from "./session-state";

export interface SessionInsides extends ObjectInsides {
  /** The stores (built on first use, which creates a session's tables). */
  readonly state: SessionState;
  /** The model client of this instance (a scripted model records the requests it received). */
  model(): ModelClient;
  /** Open SSE streams of this instance, and whether their heartbeat runs. */
  streamStatus(): { open: number; beating: boolean };
  /** Resolves once this instance holds `n` long-poll reads open (tests wait on it, not a timer). */
  untilWaitingReads(n: number): Promise<void>;
  /**
   * Drops the copies of stored rows the stores keep: every write goes through the stores, so only
   * a test that changed storage behind the object's back needs this.
   */
  forgetCopies(): void;
  /** Puts a test's own part in place (a smaller buffer or budget, to reach a limit quickly). */
  swap(parts: { streams?: EventStreams; httpBudget?: HttpCommandBudget; replayBudget?: ReplayBudget }): void;
}
