// Pausing: a pending interaction is a row with a deadline plus a prompt event. Nothing waits in
// memory; the answer, the alarm or a cancel resumes the loop from storage.
import type { ToolUseBlockParam } from "../model/model-client";
import type { ApprovalCount } from "../protocol/cards/approval-count";
import type { AgentDeps } from "./agent-deps";
import { cardDeadline } from "./card-deadline";
import { topMark } from "./frame-mark";
import { recordResult } from "./tool-results";

/** A validated request to put in front of a person, and whose tool call it belongs to. */
export interface PendingInteraction {
  id: string;
  toolCallId: string;
  toolName: string;
  kind: string;
  request: unknown;
  /** Distinct approvals an approval needs, when a deployment's rule asks for more than one. */
  needed?: number;
}

/** What storing a pending interaction reads and writes. */
type StorePendingDeps = Pick<
  AgentDeps,
  | "approvals"
  | "cardDeadlines"
  | "clock"
  | "deadlines"
  | "events"
  | "frames"
  | "interactions"
  | "kinds"
  | "settings"
  | "turn"
>;

/** Stores a pending interaction, announces it to every device and re-arms the alarm. */
export function storePending(deps: StorePendingDeps, pending: PendingInteraction): void {
  const createdAt = deps.clock.now();
  const { id, toolCallId, toolName, kind, request, needed = 1 } = pending;
  const deadline = cardDeadline(deps, {
    id,
    kind,
    toolName,
    createdAt,
    timeoutMs: deps.settings.interactionTimeoutMs,
  });
  // Only the frame on top runs its tools, so the card is always its own.
  const frame = topMark(deps);
  deps.interactions.create({
    id,
    toolCallId,
    frameId: frame.frameId,
    kind,
    toolName,
    request,
    deadline: deadline.expiresAt,
    createdAt,
  });
  const approvals = openApprovals(deps, id, needed);
  deps.events.append(deps.kinds.promptEvent(kind), {
    ...approvals,
    toolCallId,
    interactionId: id,
    kind,
    toolName,
    request,
    createdAt,
    ...(deps.kinds.readsChat(kind) ? { readsChat: true as const } : {}),
    ...deadline,
    ...frame,
  });
  const turn = deps.turn.current();
  if (turn && !turn.pausedForPerson) deps.turn.save({ ...turn, pausedForPerson: true });
  deps.deadlines.rearm();
}

/**
 * Records that a new approval needs `needed` distinct approvals, when more than one: the prompt
 * event's `approvals` field ("0 of 2 approvals", and why a second person cannot come where none
 * exists) that every device shows.
 */
export function openApprovals(
  deps: Pick<AgentDeps, "approvals">,
  id: string,
  needed: number,
): { approvals?: ApprovalCount } {
  if (needed <= 1 || !deps.approvals) return {};
  deps.approvals.open(id, needed);
  const unreachable = deps.approvals.unreachable;
  return { approvals: { needed, given: 0, by: [], ...(unreachable ? { unreachable } : {}) } };
}

/** What opening a card reads and writes: storing it, or the error result of a bad request. */
export type OpenInteractionDeps = StorePendingDeps & Pick<AgentDeps, "results">;

/** Opens a tool call's own interaction; false (with an error result recorded) when the request is invalid. */
export function openInteraction(
  deps: OpenInteractionDeps,
  kind: string,
  use: ToolUseBlockParam,
  rawRequest: unknown,
  needed = 1,
): boolean {
  const refusal = deps.kinds.refusal(kind, deps.turn.mode());
  const opened =
    refusal === null ? deps.kinds.open(kind, rawRequest) : { ok: false as const, message: refusal };
  if (!opened.ok) {
    recordResult(deps, use.id, use.name, {
      content: `Invalid ${use.name} input: ${opened.message}`,
      isError: true,
    });
    return false;
  }
  storePending(deps, {
    id: use.id,
    toolCallId: use.id,
    toolName: use.name,
    kind,
    request: opened.request,
    needed,
  });
  return true;
}
