// How an external agent's cards and events are told apart from the loop's own: their id prefix,
// the mark they carry, and the resolvedBy of a withdrawal.
import { type FrameMark, MAIN_FRAME_ID } from "../protocol/session/agents";

/** `newId` prefix of interactions an agent opened; the loop's own are tool_use ids or derived from them. */
export const EXTERNAL_ID_PREFIX = "ext";

/** True for an interaction an external agent opened: nothing in a transcript waits for its result. */
export function isExternalInteraction(record: { id: string }): boolean {
  return record.id.startsWith(`${EXTERNAL_ID_PREFIX}_`);
}

export const WITHDRAWN_BY_PREFIX = "agent:";

/** The resolvedBy of a withdrawal: the agent gave up on its own card. */
export function withdrawnBy(agent: string): string {
  return `${WITHDRAWN_BY_PREFIX}${agent}`;
}

/** The mark every card and progress event of an external agent carries: its name, at depth 0. */
export function externalMark(agent: string): FrameMark {
  return { frameId: MAIN_FRAME_ID, agent, depth: 0 };
}
