// The agent stack as clients see it: a frame per delegated agent and how a frame ended; the fold
// that turns stack events into the current stack lives in agent-stack-fold.ts.
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
