// The loop's tool step: the model's last message called tools, so they run, ask a person, or
// hand the turn to a delegated agent; the loop looks again, or pauses while a card is open.
import type { ToolUseBlockParam } from "../model/model-client";
import type { AgentDeps } from "./agent-deps";
import { refuseUnavailableTools, settleStackCalls, startDelegation } from "./stack-calls";
import { isStackTool } from "./stack-tools";
import { settleToolCalls } from "./tool-phase";
import { resultBlocks } from "./tool-results";

/**
 * Runs, asks or delegates the tool calls of the model's last message. `paused` when the turn now
 * waits for a person; `continue` when the loop should look again.
 */
export async function settleToolStep(
  deps: AgentDeps,
  uses: ToolUseBlockParam[],
  signal: AbortSignal,
): Promise<"aborted" | "paused" | "continue"> {
  refuseUnavailableTools(deps, uses);
  const outcome = await settleToolCalls(
    deps,
    uses.filter((use) => !isStackTool(use.name)),
    signal,
  );
  if (outcome === "aborted") return "aborted";
  if (outcome === "waiting") {
    // A delegated agent starts at once; this frame's open cards wait for a person meanwhile.
    if (startDelegation(deps, uses) === "moved") return "continue";
    // An answer may have arrived while tools ran: look again rather than pause with nothing pending.
    const asked = new Set(uses.map((use) => use.id));
    if (!deps.interactions.pending().some((record) => asked.has(record.toolCallId))) return "continue";
    deps.turn.setStatus("awaiting_input");
    deps.deadlines.setWatchdog(null);
    return "paused";
  }
  if (settleStackCalls(deps, uses) === "moved") return "continue";
  const blocks = resultBlocks(deps, uses);
  if (!blocks) throw new Error("tool phase reported complete with a result missing");
  deps.transcript.append("user", blocks);
  return "continue";
}
