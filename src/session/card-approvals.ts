// Cards that need several distinct approvals, over SQLite: how many each needs (from the
// deployment's APPROVAL_POLICIES when it opened) and who approved it so far, in order.
import * as z from "zod";
import type { CardApprovals, CardApprover } from "../agent/ports";
import { approvalsNeeded } from "../grants/approvals-needed";
import type { ApprovalCount } from "../protocol/approval-count";
import type { ApprovalPolicies } from "../protocol/approval-policy";
import { Decider } from "../protocol/decider";
import type { SqlCounter } from "../storage/sql-counter";

const Approvers = z.array(z.object({ key: z.string(), decider: Decider, at: z.number() }));

export class SqlCardApprovals implements Omit<CardApprovals, "needed"> {
  constructor(private readonly sql: SqlCounter) {}

  /** The port the loop uses: these rows, and how many approvals `policies` ask of a call. */
  withPolicies(policies: ApprovalPolicies): CardApprovals {
    return {
      needed: (call) => (policies.length === 0 ? 1 : approvalsNeeded(policies, call)),
      open: (id, needed) => this.open(id, needed),
      of: (id) => this.of(id),
      add: (id, approver) => this.add(id, approver),
    };
  }

  open(interactionId: string, needed: number): void {
    this.sql.run(
      ["card_approvals"],
      `INSERT OR IGNORE INTO card_approvals (interaction_id, needed, approvers) VALUES (?, ?, '[]')`,
      interactionId,
      needed,
    );
  }

  of(interactionId: string): { needed: number; approvers: CardApprover[] } | null {
    const row = this.sql.one<{ needed: number; approvers: string }>(
      `SELECT needed, approvers FROM card_approvals WHERE interaction_id = ?`,
      interactionId,
    );
    return row ? { needed: row.needed, approvers: Approvers.parse(JSON.parse(row.approvers)) } : null;
  }

  /** How far a card has got, as devices show it; null for a card that needs one approval. */
  count(interactionId: string): ApprovalCount | null {
    const card = this.of(interactionId);
    return card ? countOf(card) : null;
  }

  add(interactionId: string, approver: CardApprover): void {
    const current = this.of(interactionId);
    if (!current) return;
    this.sql.run(
      ["card_approvals"],
      `UPDATE card_approvals SET approvers = ? WHERE interaction_id = ?`,
      JSON.stringify([...current.approvers, approver]),
      interactionId,
    );
  }
}

/** A card's needs and approvers as devices show them ("1 of 2 approvals", and by whom). */
export function countOf(card: { needed: number; approvers: readonly CardApprover[] }): ApprovalCount {
  return {
    needed: card.needed,
    given: card.approvers.length,
    by: card.approvers.map((approver) => approver.decider.label ?? approver.decider.kind),
  };
}
