// What the person's decision record keeps of one resolution: the agent, the card's kind and tool,
// a digest of its request, and who decided — the decider set where the answer entered.
import type { CardApprover, InteractionRecord } from "../../agent/ports";
import { SYSTEM_DECIDER } from "../../agent/resolve-interaction";
import { inputDigest } from "../../grants/input-digest";
import type { DecisionData } from "../../protocol/inbox/decisions";
import type { InteractionResolution } from "../../protocol/session/session";

export function decisionOf(
  agent: string,
  record: InteractionRecord | null,
  resolution: InteractionResolution,
  /** The distinct answerers who approved a card that needed several, in order. */
  approvers: readonly CardApprover[] = [],
  /** The rungs of the card's escalation ladder that ran, each with when. */
  escalations: NonNullable<DecisionData["escalations"]> = [],
): DecisionData {
  return {
    agent,
    kind: resolution.kind,
    toolName: record?.toolName ?? resolution.kind,
    inputDigest: inputDigest(record?.request ?? null),
    // Every resolution carries its decider; one without (none is written so) is the session's own.
    decidedBy: resolution.decider ?? SYSTEM_DECIDER,
    ...(approvers.length > 0 ? { approvals: approvers.map((approver) => approver.decider) } : {}),
    ...(escalations.length > 0 ? { escalations } : {}),
  };
}
