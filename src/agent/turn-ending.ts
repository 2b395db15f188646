// Ending a turn in a state the Messages API accepts: every unanswered tool_use gets an error
// result (all in one user message), then `done` and the final status.
import type { ToolUseBlockParam } from "../model/model-client";
import type { AgentDeps } from "./agent-deps";
import type { TurnRecord } from "./ports";
import { recordResult, resultBlocks, toolUses } from "./tool-results";

/** Gives every tool_use of the last assistant message that lacks a result the error `explain` words. */
export function closeOpenToolUses(
  deps: AgentDeps,
  explain: (use: ToolUseBlockParam, started: boolean) => string,
): void {
  const last = deps.transcript.last();
  if (last?.role !== "assistant") return;
  const uses = toolUses(last.content);
  for (const use of uses) {
    if (!deps.results.get(use.id)) {
      recordResult(deps, use.id, use.name, {
        content: explain(use, deps.results.wasStarted(use.id)),
        isError: true,
      });
    }
  }
  const blocks = resultBlocks(deps, uses);
  if (blocks && blocks.length > 0) deps.transcript.append("user", blocks);
}

/** `done`, the turn record removed, the watchdog cleared, and idle (or failed with `error`). */
/** `by`: who cancelled or stopped the turn, as the server knows them (null when it simply ended). */
export function endTurn(
  deps: AgentDeps,
  turn: TurnRecord,
  stopReason: string,
  error: string | null,
  by: string | null = null,
): void {
  deps.events.append("done", { turnId: turn.id, stopReason, usage: turn.usage, ...(by ? { by } : {}) });
  deps.turn.end();
  deps.deadlines.setWatchdog(null);
  deps.turn.setStatus(error ? "failed" : "idle", error);
}

/**
 * Ends a turn that hit a failure the loop cannot recover from, leaving a valid transcript: devices
 * get an `error` event with `message`, and the session status carries `summary`.
 */
export function failTurn(
  deps: AgentDeps,
  turn: TurnRecord,
  code: string,
  message: string,
  summary = message,
): void {
  closeOpenToolUses(deps, (use) => `${use.name} did not run: the turn failed (${message}).`);
  deps.events.append("error", { code, message });
  endTurn(deps, turn, "error", summary);
}
