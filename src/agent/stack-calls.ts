// The tool phase's part for the stack: tools a delegated agent may not use are refused, `Agent`
// calls push a frame (one at a time, at once, even while sibling cards wait for a person) and
// `complete` pops (once the rest of its batch is settled).
import type { ToolUseBlockParam } from "../model/model-client";
import { describeZodError } from "../protocol/wire/errors";
import type { AgentDeps } from "./agent-deps";
import { popFrame, pushFrame } from "./agent-stack";
import {
  COMPLETE_TOOL_NAME,
  CompleteInput,
  DELEGATE_TOOL_NAME,
  DelegateInput,
  isStackTool,
  mayUse,
} from "./stack-tools";
import { recordResult, resultBlocks } from "./tool-results";

/** Gives an is_error result to each call of a tool the top frame's agent was not given. */
export function refuseUnavailableTools(
  deps: Pick<AgentDeps, "agents" | "events" | "frames" | "results">,
  uses: ToolUseBlockParam[],
): void {
  const frame = deps.frames.top();
  if (!frame) return;
  for (const use of uses) {
    if (deps.results.get(use.id) || mayUse(deps, frame, use.name)) continue;
    const tools = deps.agents.get(frame.agent)?.tools ?? [];
    fail(
      deps,
      use,
      `Tool "${use.name}" is not available to agent "${frame.agent}". Its tools: ${[...tools, COMPLETE_TOOL_NAME].join(", ")}.`,
    );
  }
}

/**
 * Starts the batch's first delegation that has no result yet, without waiting for the other calls:
 * their cards stay open and answerable while the child runs, and the parent's barrier still holds
 * its next model call until every call — the child's result included — has one. "moved" when a
 * frame was pushed. (A delegation with a result was refused or has already come back; one that is
 * running is on top of this frame, so the loop is not here.)
 */
export function startDelegation(
  deps: Pick<
    AgentDeps,
    "agents" | "clock" | "events" | "frames" | "newId" | "results" | "settings" | "transcript"
  >,
  uses: ToolUseBlockParam[],
): "moved" | "none" {
  for (const use of uses) {
    if (use.name !== DELEGATE_TOOL_NAME || deps.results.get(use.id)) continue;
    if (delegate(deps, use)) return "moved";
  }
  return "none";
}

/**
 * Settles the batch's `Agent` and `complete` calls once every other call has its result.
 * "moved" when the stack changed (a frame was pushed or popped) and the loop must look again at
 * whichever frame is now on top; "settled" when every stack call got a result here.
 */
export function settleStackCalls(
  deps: Pick<
    AgentDeps,
    "agents" | "clock" | "events" | "frames" | "newId" | "results" | "settings" | "transcript"
  >,
  uses: ToolUseBlockParam[],
): "moved" | "settled" {
  for (const use of uses) {
    if (!isStackTool(use.name) || deps.results.get(use.id)) continue;
    if (use.name === DELEGATE_TOOL_NAME) {
      if (delegate(deps, use)) return "moved";
    } else if (complete(deps, use, uses)) return "moved";
  }
  return "settled";
}

function delegate(
  deps: Pick<
    AgentDeps,
    "agents" | "clock" | "events" | "frames" | "newId" | "results" | "settings" | "transcript"
  >,
  use: ToolUseBlockParam,
): boolean {
  const parsed = DelegateInput.safeParse(use.input);
  if (!parsed.success)
    return fail(deps, use, `Invalid input for tool "Agent": ${describeZodError(parsed.error)}.`);
  const input = parsed.data;
  const agent = deps.agents.get(input.subagent_type);
  const frame = deps.frames.top();
  if (!agent) {
    const available =
      deps.agents
        .all()
        .map((a) => a.name)
        .join(", ") || "(none)";
    return fail(deps, use, `Unknown agent "${input.subagent_type}". Available agents: ${available}.`);
  }
  if (frame?.agent === agent.name) {
    return fail(
      deps,
      use,
      `Agent "${agent.name}" cannot delegate to itself; do the work yourself or call complete.`,
    );
  }
  const depth = (frame?.depth ?? 0) + 1;
  if (depth > deps.settings.maxAgentDepth) {
    return fail(
      deps,
      use,
      `Cannot delegate to "${agent.name}": agents may nest at most ${deps.settings.maxAgentDepth} deep, and this one is at depth ${depth - 1}. Do the work yourself or call complete.`,
    );
  }
  pushFrame(deps, use, agent, input);
  return true;
}

function complete(
  deps: Pick<AgentDeps, "clock" | "events" | "frames" | "results" | "transcript">,
  use: ToolUseBlockParam,
  uses: ToolUseBlockParam[],
): boolean {
  const frame = deps.frames.top();
  if (!frame) {
    return fail(
      deps,
      use,
      `The complete tool is only for delegated agents; the main agent answers the person directly.`,
    );
  }
  const parsed = CompleteInput.safeParse(use.input);
  if (!parsed.success)
    return fail(deps, use, `Invalid input for tool "complete": ${describeZodError(parsed.error)}.`);
  recordResult(deps, use.id, use.name, {
    content: "Your result was handed back to the agent that delegated to you.",
    isError: false,
  });
  for (const other of uses) {
    if (!deps.results.get(other.id))
      fail(deps, other, `${other.name} did not run: ${frame.agent} completed first.`);
  }
  // Close this agent's own transcript before it leaves the top, so it stays valid.
  const blocks = resultBlocks(deps, uses);
  if (blocks) deps.transcript.append("user", blocks);
  popFrame(deps, frame, "completed", parsed.data.result, false);
  return true;
}

/** Records an is_error result for `use`; returns false, as the stack did not move. */
function fail(
  deps: Pick<AgentDeps, "events" | "frames" | "results">,
  use: ToolUseBlockParam,
  message: string,
): false {
  recordResult(deps, use.id, use.name, { content: message, isError: true });
  return false;
}
