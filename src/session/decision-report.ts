// What the person's decision record keeps of one resolution: the agent, the card's kind and tool,
// a digest of its request, and who decided — a person from a kind of device, a grant, the
// deadline, a withdrawal or a cancel.
import { WITHDRAWN_BY_PREFIX } from "../agent/external-id";
import type { InteractionRecord } from "../agent/ports";
import { GRANT_BY_PREFIX } from "../agent/resolve-interaction";
import { inputDigest } from "../grants/input-digest";
import type { DecidedBy, DecisionData } from "../protocol/decisions";
import type { InteractionResolution } from "../protocol/session";
import { deviceKindOf } from "./device-kind";

export function decisionOf(
  agent: string,
  record: InteractionRecord | null,
  resolution: InteractionResolution,
): DecisionData {
  return {
    agent,
    kind: resolution.kind,
    toolName: record?.toolName ?? resolution.kind,
    inputDigest: inputDigest(record?.request ?? null),
    decidedBy: decidedBy(record, resolution),
  };
}

function decidedBy(record: InteractionRecord | null, resolution: InteractionResolution): DecidedBy {
  const by = resolution.resolvedBy;
  if (by?.startsWith(GRANT_BY_PREFIX)) return { type: "grant", grantId: by.slice(GRANT_BY_PREFIX.length) };
  if (resolution.outcome === "timed_out") return { type: "deadline" };
  if (resolution.outcome === "cancelled") {
    if (by?.startsWith(WITHDRAWN_BY_PREFIX)) {
      return { type: "withdrawal", agent: by.slice(WITHDRAWN_BY_PREFIX.length) };
    }
    // A deadline policy that cancels leaves no device; so can a cancel over HTTP, before the deadline.
    if (by === null && record && record.deadline <= resolution.resolvedAt) return { type: "deadline" };
    return { type: "cancel", device: by === null ? null : deviceKindOf(by) };
  }
  return { type: "person", name: resolution.answeredBy ?? null, device: deviceKindOf(by) };
}
