// An approval a deployment's rule made wait for several distinct people (APPROVAL_POLICIES): each
// new person's approval is counted and announced ("1 of 2 approvals") and the card stays open; the
// last one resolves it as usual. A denial is never counted: it decides at once. People, not
// credentials, are counted: a person's page, inbox, links and chat accounts are one approver.

import { approvalsText, stillWaitingFor } from "../protocol/cards/approval-words";
import { approverKey, type Decider } from "../protocol/cards/decider";
import type { ApprovalCount, ApprovalCounted } from "../protocol/grants/approval-policy";
import type { ErrorBody } from "../protocol/wire/errors";
import type { AgentDeps } from "./agent-deps";
import { markOf } from "./frame-mark";
import type { InteractionRecord } from "./ports";

export type CountResult =
  /** Counted; the card waits for more approvals. */
  | { ok: true; counted: ApprovalCounted }
  | { ok: false; error: ErrorBody }
  /** Not a card that needs several, or this approval is the last one needed: resolve it. */
  | null;

export function countApproval(
  deps: Pick<AgentDeps, "approvals" | "events" | "frames">,
  record: InteractionRecord,
  response: unknown,
  sent: { deviceId: string | null; decider: Decider | null; at: number },
): CountResult {
  const approvals = deps.approvals;
  const card = approvals?.of(record.id);
  if (!card || !approvals) return null;
  const { decider, at } = sent;
  const key = decider ? approverKey(decider, approvals.owner()) : null;
  const reach = approvals.unreachable ? { unreachable: approvals.unreachable } : {};
  const so = approvalsText({ given: card.approvers.length, needed: card.needed });
  if (!decider || key === null) {
    return refuse(
      "forbidden",
      `This call needs approvals from ${card.needed} different people; only a person answering gives one`,
    );
  }
  // Every approver must have approved the same call: an edit would run what only one of them saw.
  if ((response as { updatedInput?: unknown } | null)?.updatedInput !== undefined) {
    return refuse(
      "invalid_answer",
      `This call needs approvals from ${card.needed} different people, so it runs as asked: approve it without edits`,
    );
  }
  if (card.approvers.some((approver) => approver.key === key)) {
    return refuse(
      "already_approved",
      `You already approved this call; it needs approvals from ${card.needed} different people (${so} so far): ${stillWaitingFor(reach)}`,
    );
  }
  approvals.add(record.id, { key, decider, at });
  const given = card.approvers.length + 1;
  if (given >= card.needed) return null;
  const by = [...card.approvers.map((approver) => approver.decider), decider].map(
    (approver) => approver.label ?? approver.kind,
  );
  const count: ApprovalCount = { needed: card.needed, given, by, ...reach };
  const counted: ApprovalCounted = {
    toolCallId: record.toolCallId,
    interactionId: record.id,
    approvals: count,
    decider,
    deviceId: sent.deviceId,
    at,
    ...markOf(deps, record.frameId),
  };
  deps.events.append("approval_counted", counted);
  return { ok: true, counted };
}

function refuse(code: ErrorBody["code"], message: string): { ok: false; error: ErrorBody } {
  return { ok: false, error: { code, message } };
}
