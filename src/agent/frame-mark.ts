// Which agent an event belongs to (FrameMark): the loop stamps every event a frame produces with
// its frame's id, agent and depth, so devices label it without folding the stack.
import { type FrameMark, MAIN_FRAME_ID, MAIN_FRAME_MARK } from "../protocol/session/agents";
import type { FrameStore } from "./ports";

/** The mark of the frame `frameId` (the main agent's for MAIN_FRAME_ID or a frame not stored). */
export function markOf(deps: { frames: Pick<FrameStore, "get"> }, frameId: string): FrameMark {
  if (frameId === MAIN_FRAME_ID) return MAIN_FRAME_MARK;
  const frame = deps.frames.get(frameId);
  return frame ? { frameId, agent: frame.agent, depth: frame.depth } : MAIN_FRAME_MARK;
}

/** The mark of the frame on top of the stack: the agent holding the conversation now. */
export function topMark(deps: { frames: Pick<FrameStore, "top"> }): FrameMark {
  const frame = deps.frames.top();
  return frame ? { frameId: frame.frameId, agent: frame.agent, depth: frame.depth } : MAIN_FRAME_MARK;
}
