// The budgets a command spends once its sender passed the guard, the same through every door:
// progress events per credential, the day's model tokens, and the interval between retries now.
import type { Access } from "../../protocol/access/access";
import type { SessionCommand } from "../../protocol/wire/commands";
import { externalAgentOf } from "../external-session";
import { logIdsOf } from "../session-gate";
import type { SessionRuntime } from "../session-runtime";
import type { SessionState } from "../session-state";
import { refuseEarlyRetryNow } from "./retry-now-interval";

/** Refuses, changing nothing, a command over one of its budgets; the allowance of commands is the door's. */
export function spendCommandBudgets(
  state: SessionState,
  runtime: Pick<SessionRuntime, "budget">,
  access: Access,
  command: SessionCommand,
): void {
  const logIds = logIdsOf(state, access);
  if (command.type === "post_progress") state.progressBudget.take(access, command.events.length, logIds);
  // An outside agent's session calls no model: a message there is the agent's to read.
  if (externalAgentOf(state.meta)) return;
  runtime.budget?.refuseCommand(command, access);
  if (command.type === "retry_now") refuseEarlyRetryNow(state.meta, state.clock.now(), logIds);
}
