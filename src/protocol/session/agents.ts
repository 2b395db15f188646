// The agent stack as clients see it: a frame per delegated agent and how a frame ended; the fold
// that turns stack events into the current stack lives in agent-stack-fold.ts.
import * as z from "zod";
import { lazySchema } from "../lazy-schema";
import { MAIN_FRAME_ID } from "./main-frame";

export { MAIN_FRAME_ID };

/**
 * Which agent an event belongs to, so a device labels it without folding the stack: the frame's
 * id, its agent's name and its depth. The main agent is `{ frameId: "main", agent: "main", depth: 0 }`.
 */
export const FrameMark = lazySchema(() =>
  z.object({
    frameId: z.string(),
    agent: z.string(),
    depth: z.number().int().nonnegative(),
  }),
);
export type FrameMark = z.infer<typeof FrameMark>;

/** The main agent's mark (the agent name "main" is reserved for it). */
export const MAIN_FRAME_MARK: FrameMark = { frameId: MAIN_FRAME_ID, agent: MAIN_FRAME_ID, depth: 0 };

/**
 * The mark's fields on an event payload (`FrameMark`'s, each optional, since events stored before
 * marks lack them), spread into the events' schemas when those are built.
 */
export const FRAME_MARK_FIELDS = {
  frameId: lazySchema(() => z.string().optional()),
  agent: lazySchema(() => z.string().optional()),
  depth: lazySchema(() => z.number().int().nonnegative().optional()),
};

/** How a delegated agent's frame ended. */
export const AgentOutcome = lazySchema(() => z.enum(["completed", "failed", "cancelled", "ended"]));
export type AgentOutcome = z.infer<typeof AgentOutcome>;

/** A delegated agent on the stack (the main agent is implicit, at depth 0). */
export const AgentFrameView = lazySchema(() =>
  z.object({
    frameId: z.string(),
    agent: z.string(),
    /** The delegation call in the parent frame that this frame answers. */
    parentToolCallId: z.string(),
    /** The short task description the parent gave. */
    task: z.string(),
    /** 1 for an agent the main agent delegated to, 2 for one that agent delegated to, … */
    depth: z.number().int().positive(),
  }),
);
export type AgentFrameView = z.infer<typeof AgentFrameView>;

export const AgentStartedData = AgentFrameView;
export const AgentCompletedData = lazySchema(() =>
  z.object({
    frameId: z.string(),
    agent: z.string(),
    outcome: AgentOutcome,
    /** What the parent receives as the delegation call's tool_result. */
    result: z.string(),
  }),
);
