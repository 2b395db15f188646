// A turn that failed outside the model call (storage refused a write, a corrupt row, a bug) ends
// as failed with an `internal` error and a valid transcript, never left running for the watchdog.
import type { ToolUseBlockParam } from "../model/model-client";
import type { AgentDeps } from "./agent-deps";
import { unwindStack } from "./agent-stack";
import { cancelPending } from "./resolve-interaction";
import { closeOpenToolUses, endTurn, failTurn } from "./turn-ending";

/** Fails the current turn, if any, for `error`: its cards close, its stack unwinds. */
export function failRunningTurn(deps: AgentDeps, error: unknown): void {
  const turn = deps.turn.current();
  if (!turn) return;
  const message = `Internal error: ${errorMessage(error)}`;
  try {
    // The stack is cleaned up too: the next message goes to the main agent, not a broken child.
    const explain = (use: ToolUseBlockParam) => `${use.name} did not run: the turn failed (${message}).`;
    // Every frame's cards close too: none may stay answerable for a stack that is gone.
    cancelPending(deps, { deviceId: null });
    closeOpenToolUses(deps, explain);
    unwindStack(deps, "failed", explain);
    failTurn(deps, turn, "internal", message);
  } catch (closing) {
    // Even closing the tool calls failed: end the turn anyway rather than leave it running.
    console.error("AgentLoop could not close the failed turn", closing);
    endTurn(deps, turn, "error", message);
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
