// The agent stack's transitions (docs/architecture.md#the-agent-stack): push a delegated agent, pop it with a result for its
// parent's delegation call, and unwind. Each is synchronous store writes, so a transition is atomic
// in SQLite and the loop, on any instance, continues from whichever frame is on top.
import type { AgentDefinition } from "../agent-definitions/agent-definition";
import type { ToolUseBlockParam } from "../model/model-client";
import { type AgentOutcome, MAIN_FRAME_ID } from "../protocol/session/agents";
import type { AgentDeps } from "./agent-deps";
import { markOf } from "./frame-mark";
import type { FrameRecord } from "./ports";
import { DELEGATE_TOOL_NAME, type DelegateInput } from "./stack-tools";
import { recordResult } from "./tool-results";
import { closeOpenToolUses } from "./turn-ending";

/** Pushes a frame for `agent` answering the delegation call `use`; its task is its first message. */
export function pushFrame(
  deps: Pick<AgentDeps, "clock" | "events" | "frames" | "newId" | "transcript">,
  use: ToolUseBlockParam,
  agent: AgentDefinition,
  input: DelegateInput,
): FrameRecord {
  const parent = deps.frames.top();
  const frame = {
    frameId: deps.newId("frame"),
    parentFrameId: parent?.frameId ?? MAIN_FRAME_ID,
    parentToolCallId: use.id,
    agent: agent.name,
    task: input.description,
    depth: (parent?.depth ?? 0) + 1,
    startedAt: deps.clock.now(),
  };
  deps.frames.push(frame);
  // The transcript follows the top of the stack, so this opens the new agent's own conversation.
  deps.transcript.append("user", [{ type: "text", text: input.prompt }]);
  const { frameId, agent: name, parentToolCallId, task, depth } = frame;
  deps.events.append("agent_started", { frameId, agent: name, parentToolCallId, task, depth });
  return { ...frame, status: "active", iterations: 0, endedAt: null };
}

/**
 * Pops `frame`: it ends with `outcome`, and `result` becomes the tool_result of the parent's
 * delegation call, which completes the parent's barrier. A frame already ended is left alone.
 */
export function popFrame(
  deps: Pick<AgentDeps, "clock" | "events" | "frames" | "results">,
  frame: FrameRecord,
  outcome: AgentOutcome,
  result: string,
  isError: boolean,
): boolean {
  if (!deps.frames.end(frame.frameId, outcome, deps.clock.now())) return false;
  deps.events.append("agent_completed", { frameId: frame.frameId, agent: frame.agent, outcome, result });
  recordResult(
    deps,
    frame.parentToolCallId,
    DELEGATE_TOOL_NAME,
    { content: result, isError },
    markOf(deps, frame.parentFrameId),
  );
  return true;
}

/**
 * Ends the top frame without a result from it (its iteration cap, a failed model call, the person
 * ending it): its open tool calls are closed so its transcript stays valid, then it is popped with
 * an is_error result the parent can act on.
 */
export function abandonFrame(
  deps: Pick<AgentDeps, "clock" | "events" | "frames" | "results" | "transcript">,
  frame: FrameRecord,
  outcome: AgentOutcome,
  result: string,
): void {
  closeOpenToolUses(deps, (use, started) =>
    started
      ? `${use.name} was stopped while running because agent "${frame.agent}" ended; its effect is unknown.`
      : `${use.name} did not run because agent "${frame.agent}" ended.`,
  );
  popFrame(deps, frame, outcome, result, true);
}

/**
 * Cancel (or a failure the loop cannot recover from): every frame from the top down is popped with
 * `outcome`, and each parent's open calls are closed in turn, so every transcript on the stack
 * stays valid for the Messages API. The top frame's own open calls must be closed first.
 */
export function unwindStack(
  deps: Pick<AgentDeps, "clock" | "events" | "frames" | "results" | "transcript">,
  outcome: "cancelled" | "failed",
  explain: (use: ToolUseBlockParam, started: boolean) => string,
): void {
  for (let frame = deps.frames.top(); frame; frame = deps.frames.top()) {
    const result =
      outcome === "cancelled"
        ? `The person cancelled; agent "${frame.agent}" was stopped before it completed.`
        : `Agent "${frame.agent}" was stopped by an internal error before it completed.`;
    popFrame(deps, frame, outcome, result, true);
    closeOpenToolUses(deps, explain);
  }
}

/** The parent's result when the person ends the top agent themselves. */
export function endedByPersonResult(frame: FrameRecord): string {
  return `The person ended the conversation with agent "${frame.agent}" before it called complete; it returned no result.`;
}
