// What a linked chat account is told of its answer once its card's session took it or refused it:
// the count an approval joined, more time given, the winner's receipt, a session gone.

import { approvalsText, stillWaitingFor } from "../protocol/cards/approval-words";
import { ApprovalCounted } from "../protocol/grants/approval-policy";
import type { ErrorBody } from "../protocol/wire/errors";
import { chatReceipt } from "./card-receipt";

/** What to tell the account the session took its answer with `result`; null: the receipt says it. */
export function acceptedWords(commandType: string, result: unknown): string | null {
  if (commandType === "extend_deadline") return "More time given.";
  // A card that needs several people counted this approval and waits for the rest.
  const counted = ApprovalCounted.safeParse(result);
  return counted.success
    ? `Your approval counts: ${approvalsText({ ...counted.data.approvals, unreachable: undefined })}; ${stillWaitingFor(counted.data.approvals)}.`
    : null;
}

/** What to tell the account the session refused: the winner's receipt, a lost session; else null. */
export function refusalWords(error: ErrorBody): string | null {
  const winner = error.resolution;
  if (error.code === "already_resolved" && winner)
    return `Already decided: ${chatReceipt(winner.kind, winner)}.`;
  if (error.code === "unknown_session" || error.code === "forbidden")
    return "This card's session is gone or is no longer yours.";
  return null;
}
