// The receipt a card's chat message is edited to once the card resolved anywhere, read from the
// resolution the session reported ("Approved by Ana · Telegram", "Timed out — denied").
import { chatReceipt as receiptOf } from "../interactions/kinds/chat-receipt";
import { namesSomeone } from "../protocol/access/people";
import type { OutboxEntry } from "../protocol/inbox/inbox";
import type { InteractionResolution } from "../protocol/session/session";

type Resolved = Pick<Extract<OutboxEntry, { type: "card_resolved" }>, "outcome" | "answeredBy" | "decision">;

/** The receipt of a `kind` card resolved as `resolved` says. */
export function chatReceipt(kind: string, resolved: Resolved): string {
  return receiptOf({
    kind,
    outcome: resolved.outcome,
    answeredBy: resolved.answeredBy ?? null,
    named: namesSomeone(resolved.answeredBy),
    decidedBy: resolved.decision?.decidedBy ?? null,
  });
}

/** The receipt of a `kind` card as the session's own resolution of an answer just given says it. */
export function receiptOfResolution(
  kind: string,
  resolution: Pick<InteractionResolution, "outcome" | "answeredBy" | "decider">,
): string {
  return receiptOf({
    kind,
    outcome: resolution.outcome,
    answeredBy: resolution.answeredBy ?? null,
    named: namesSomeone(resolution.answeredBy),
    decidedBy: resolution.decider ?? null,
  });
}
