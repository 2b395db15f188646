// The agent stack as clients see it: a frame per delegated agent, how a frame ended, and the one
// pure fold that turns `agent_started` / `agent_completed` events into the current stack.
import { z } from "zod";

/** The main agent's frame id; delegated agents get generated ids. */
export const MAIN_FRAME_ID = "main";

/** How a delegated agent's frame ended. */
export const AgentOutcome = z.enum(["completed", "failed", "cancelled", "ended"]);
export type AgentOutcome = z.infer<typeof AgentOutcome>;

/** A delegated agent on the stack (the main agent is implicit, at depth 0). */
export const AgentFrameView = z.object({
  frameId: z.string(),
  agent: z.string(),
  /** The delegation call in the parent frame that this frame answers. */
  parentToolCallId: z.string(),
  /** The short task description the parent gave. */
  task: z.string(),
  /** 1 for an agent the main agent delegated to, 2 for one that agent delegated to, … */
  depth: z.number().int().positive(),
});
export type AgentFrameView = z.infer<typeof AgentFrameView>;

export const AgentStartedData = AgentFrameView;
export const AgentCompletedData = z.object({
  frameId: z.string(),
  agent: z.string(),
  outcome: AgentOutcome,
  /** What the parent receives as the delegation call's tool_result. */
  result: z.string(),
});

type StackEvent =
  | { type: "agent_started"; data: AgentFrameView }
  | { type: "agent_completed"; data: { frameId: string } }
  | { type: string; data: unknown };

/**
 * The stack after `event`: a start pushes, a completion pops that frame (and anything above it,
 * which a well-formed log never has). Other events leave it unchanged. Bottom first.
 */
export function applyStackEvent(stack: readonly AgentFrameView[], event: StackEvent): AgentFrameView[] {
  if (event.type === "agent_started") return [...stack, event.data as AgentFrameView];
  if (event.type === "agent_completed") {
    const { frameId } = event.data as { frameId: string };
    const at = stack.findIndex((frame) => frame.frameId === frameId);
    return at < 0 ? [...stack] : stack.slice(0, at);
  }
  return [...stack];
}
