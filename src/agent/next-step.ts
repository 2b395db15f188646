// The agent loop's decision, apart from its writes: given what the stores say now, which step comes
// next. `drive()` carries the step out and asks again, so every branch is tested without a model.
import type { ToolUseBlockParam } from "../model/model-client";
import type { AgentDeps } from "./agent-deps";
import type { FrameRecord, TurnRecord } from "./ports";
import { toolUses } from "./tool-results";

/** A turn whose model call is lost or stalls this many times fails rather than retrying forever. */
export const MAX_RESTARTS = 3;

/** What the loop reads to decide; `readLoopState` takes it from the stores. */
export interface LoopState {
  turn: TurnRecord | null;
  /** Messages waiting for a turn of their own. */
  queued: number;
  /** Tool calls of the last message, when the model wrote it; null when the person spoke last. */
  lastAssistantUses: ToolUseBlockParam[] | null;
  /** The delegated agent on top of the stack, with its own call limit (null when it is no longer defined). */
  top: { frame: FrameRecord; maxIterations: number | null } | null;
  now: number;
  maxTurnIterations: number;
  /** Why the session's model budget allows no call now (model-budget.ts), or null while it does. */
  budgetRefusal: string | null;
}

export type Step =
  /** Nothing to do: no turn, and no message waiting. */
  | { step: "stop" }
  /** A waiting message starts a turn. */
  | { step: "begin_turn" }
  /** The model's last message called tools: run, ask or delegate them. */
  | { step: "settle_tools"; turn: TurnRecord; uses: ToolUseBlockParam[] }
  /** The model's last message called no tool: the turn is over. */
  | { step: "end_turn"; turn: TurnRecord }
  /** A model call was started and never finished: say so and issue it again. */
  | { step: "restart_call"; turn: TurnRecord }
  /** A call was lost once too often: the turn fails. */
  | { step: "fail_lost_call"; turn: TurnRecord }
  /** The turn made as many model calls as one turn may. */
  | { step: "iteration_limit"; turn: TurnRecord }
  /** The session spent its model budget for the day: the turn fails with `message`. */
  | { step: "budget_exhausted"; turn: TurnRecord; message: string }
  /**
   * The top agent cannot make another call (past its own limit, or its definition was removed by a
   * deploy): it is popped with `result` as an error for its parent, which decides what to do.
   */
  | { step: "pop_frame"; frame: FrameRecord; result: string }
  /** A model outage is waited out: the watchdog points at `at`, so the alarm (or "retry now") resumes it. */
  | { step: "wait_retry"; turn: TurnRecord; at: number }
  /** Ask the model for the next message. */
  | { step: "call_model"; turn: TurnRecord };

/** The stores' answers `nextStep` needs, read without writing anything. */
export function readLoopState(
  deps: Pick<
    AgentDeps,
    "turn" | "queue" | "transcript" | "frames" | "agents" | "clock" | "settings" | "budget"
  >,
): LoopState {
  const last = deps.transcript.last();
  const frame = deps.frames.top();
  return {
    turn: deps.turn.current(),
    queued: deps.queue.size(),
    lastAssistantUses: last?.role === "assistant" ? toolUses(last.content) : null,
    top: frame ? { frame, maxIterations: deps.agents.get(frame.agent)?.maxIterations ?? null } : null,
    now: deps.clock.now(),
    maxTurnIterations: deps.settings.maxTurnIterations,
    budgetRefusal: deps.budget?.refusal() ?? null,
  };
}

/** The next step of the loop, decided from `state` alone. */
export function nextStep(state: LoopState): Step {
  const { turn } = state;
  if (!turn) return state.queued > 0 ? { step: "begin_turn" } : { step: "stop" };
  const uses = state.lastAssistantUses;
  if (uses && uses.length > 0) return { step: "settle_tools", turn, uses };
  // An assistant message without tool calls ends the turn, unless it paused to be continued.
  if (uses && !turn.continuePaused) return { step: "end_turn", turn };
  if (turn.callInFlight)
    return turn.restarts >= MAX_RESTARTS ? { step: "fail_lost_call", turn } : { step: "restart_call", turn };
  if (turn.iterations >= state.maxTurnIterations) return { step: "iteration_limit", turn };
  if (state.budgetRefusal !== null) return { step: "budget_exhausted", turn, message: state.budgetRefusal };
  const top = state.top;
  if (top && top.maxIterations === null) {
    const result = `Agent "${top.frame.agent}" is no longer defined, so it could not continue.`;
    return { step: "pop_frame", frame: top.frame, result };
  }
  if (top && top.maxIterations !== null && top.frame.iterations >= top.maxIterations) {
    const result = `Agent "${top.frame.agent}" stopped after ${top.frame.iterations} model calls (its limit) without calling complete.`;
    return { step: "pop_frame", frame: top.frame, result };
  }
  if (turn.retry && turn.retry.at > state.now) return { step: "wait_retry", turn, at: turn.retry.at };
  return { step: "call_model", turn };
}
