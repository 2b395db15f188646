// Cards that need several distinct approvals, over SQLite: how many each needs (from the
// deployment's APPROVAL_POLICIES when it opened) and which people approved it so far, in order.
import * as z from "zod";
import type { CardApprovals, CardApprover } from "../agent/ports";
import type { Config } from "../config";
import { approvalsNeeded } from "../grants/approvals-needed";
import type { MetaStore } from "../objects/meta-store";
import type { ApprovalCount } from "../protocol/cards/approval-count";
import { ONE_PERSON_ONLY } from "../protocol/cards/approval-words";
import { approverKey, Decider } from "../protocol/cards/decider";
import type { ApprovalPolicies } from "../protocol/grants/approval-policy";
import { lazySchema } from "../protocol/lazy-schema";
import type { SqlCounter } from "../storage/sql-counter";

const Approvers = lazySchema(() => z.array(z.object({ key: z.string(), decider: Decider, at: z.number() })));

/**
 * Why a card needing a second person cannot get one in this deployment: without Cloudflare Access
 * every credential leads back to one person (the operator), so only Access identities — and
 * people the operator invited (src/people), who are people of their own — can give a second approval.
 */
export function approvalsUnreachable(config: Pick<Config, "access">): string | null {
  return config.access ? null : ONE_PERSON_ONLY;
}

/** The meta row saying the session's person had an invited approver when a card last opened. */
const APPROVER_KNOWN = "invited_approver_known";

export class SqlCardApprovals implements Omit<CardApprovals, "needed"> {
  // INVARIANT: set once by the session's wiring from the deployment's config (approvalsUnreachable),
  // which an instance never sees change; a new instance is wired again.
  deploymentReach: string | null = null;

  /** `owner` reads the session's creator, whom answers naming no person count as. */
  constructor(
    private readonly sql: SqlCounter,
    readonly owner: () => string | null,
    private readonly meta: MetaStore,
  ) {}

  /**
   * Why a second approval cannot come: the deployment's reason, unless the person has an invited
   * approver (learnt from their inbox before an approval opens, kept so a reload says the same).
   */
  get unreachable(): string | null {
    return this.deploymentReach && this.meta.string(APPROVER_KNOWN) !== "1" ? this.deploymentReach : null;
  }

  /** What the person's inbox said just now: whether they have an invited approver. */
  noteApprovers(known: boolean): void {
    if ((this.meta.string(APPROVER_KNOWN) === "1") !== known)
      this.meta.set(APPROVER_KNOWN, known ? "1" : "0");
  }

  /** The port the loop uses: these rows, and how many approvals `policies` ask of a call. */
  withPolicies(policies: ApprovalPolicies): CardApprovals {
    const store = this;
    return {
      needed: (call) => (policies.length === 0 ? 1 : approvalsNeeded(policies, call)),
      open: (id, needed) => this.open(id, needed),
      of: (id) => this.of(id),
      add: (id, approver) => this.add(id, approver),
      owner: () => this.owner(),
      get unreachable() {
        return store.unreachable;
      },
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

  /**
   * A card's needs and approvers. Each approver is keyed again by the person its decider counts
   * as, so a row kept when approvers were told apart by credential counts each as its person.
   */
  of(interactionId: string): { needed: number; approvers: CardApprover[] } | null {
    const row = this.sql.one<{ needed: number; approvers: string }>(
      `SELECT needed, approvers FROM card_approvals WHERE interaction_id = ?`,
      interactionId,
    );
    if (!row) return null;
    const owner = this.owner();
    const approvers = Approvers.parse(JSON.parse(row.approvers)).map((approver) => ({
      ...approver,
      key: approverKey(approver.decider, owner) ?? approver.key,
    }));
    return { needed: row.needed, approvers };
  }

  /** How far a card has got, as devices show it; null for a card that needs one approval. */
  count(interactionId: string): ApprovalCount | null {
    const card = this.of(interactionId);
    return card ? countOf(card, this.unreachable) : null;
  }

  add(interactionId: string, approver: CardApprover): void {
    const current = this.sql.one<{ approvers: string }>(
      `SELECT approvers FROM card_approvals WHERE interaction_id = ?`,
      interactionId,
    );
    if (!current) return;
    this.sql.run(
      ["card_approvals"],
      `UPDATE card_approvals SET approvers = ? WHERE interaction_id = ?`,
      JSON.stringify([...Approvers.parse(JSON.parse(current.approvers)), approver]),
      interactionId,
    );
  }
}

/** A card's needs and approvers as devices show them ("1 of 2 approvals", by whom, and whether it can be met). */
export function countOf(
  card: { needed: number; approvers: readonly CardApprover[] },
  unreachable: string | null,
): ApprovalCount {
  return {
    needed: card.needed,
    given: card.approvers.length,
    by: card.approvers.map((approver) => approver.decider.label ?? approver.decider.kind),
    ...(unreachable ? { unreachable } : {}),
  };
}
