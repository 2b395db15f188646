// What a chat message of a card says once the card resolved: the outcome in the kind's own words,
// who decided and where ("Approved by Ana · Telegram"), or what the deadline did ("Timed out — denied").
import { OUTCOME_WORDS } from "../../protocol/session/outcome-words";
import type { InteractionOutcome } from "../../protocol/session/session";
import { CHAT_VIEWS } from "./chat-views";

/** Who decided, as the decision record says it (src/protocol/cards/decider.ts), reduced to what a receipt tells. */
export interface ReceiptDecider {
  kind: string;
}

export interface ReceiptFacts {
  kind: string;
  outcome: InteractionOutcome;
  /** The answerer's name as recorded ("Ana · Telegram", an email), or null. */
  answeredBy: string | null;
  /** Whether `answeredBy` names a person worth naming (not the operator, not `local`). */
  named: boolean;
  decidedBy: ReceiptDecider | null;
}

export function chatReceipt(facts: ReceiptFacts): string {
  const view = CHAT_VIEWS[facts.kind];
  const decider = facts.decidedBy?.kind;
  if (decider === "withdrawal") return "Withdrawn";
  // A deadline policy that cancels is decided by the policy, at the deadline.
  if (facts.outcome === "timed_out" || decider === "deadline" || decider === "policy") {
    // A deadline that cancels says so; one that times out says what that meant for this kind.
    const meant = facts.outcome === "cancelled" ? "cancelled" : (view?.timedOut ?? "no answer");
    return `Timed out — ${meant}`;
  }
  const words = OUTCOME_WORDS[facts.outcome];
  return facts.named && facts.answeredBy ? `${words} by ${facts.answeredBy}` : words;
}
