// Invited approvers (docs/guide-approvers.md#invited-approvers): what a person states when they invite
// someone to answer their cards, and how invites and approvers are listed. Zod at the edge, types inferred.
import * as z from "zod";
import { parseRule } from "../grants/grant-rule";

/** Longest an invite waits to be redeemed (a week), and how long by default (a day). */
export const MAX_INVITE_TTL_SECONDS = 7 * 24 * 60 * 60;
export const DEFAULT_INVITE_TTL_SECONDS = 24 * 60 * 60;

/** Most invites and approvers one person keeps (removed ones included, as the list shows them). */
export const MAX_PEOPLE = 50;

/** Invite and approver ids: 16 random bytes as 32 hex characters. */
export const ApproverId = z.string().regex(/^[0-9a-f]{32}$/, "must be 32 hex characters");

/** The person id of an approver a deployment without Access knows only by their credential. */
export const APPROVER_PREFIX = "approver:";

/** Which of the inviter's cards an approver sees and answers. */
export const PeopleScope = z.discriminatedUnion("scope", [
  z.strictObject({ scope: z.literal("all") }),
  /** The cards of sessions whose agent the inbox lists under this name. */
  z.strictObject({ scope: z.literal("agent"), agent: z.string().trim().min(1).max(80) }),
  /** Approvals whose call this rule covers, read as a deny reads it (grants' syntax). */
  z.strictObject({ scope: z.literal("rule"), rule: z.string().trim().min(1).max(512) }),
]);
export type PeopleScope = z.infer<typeof PeopleScope>;

const InviteFields = z.strictObject({
  name: z.string().trim().min(1, "name must not be empty").max(80),
  scope: z.enum(["all", "agent", "rule"]),
  agent: z.string().optional(),
  rule: z.string().optional(),
  /** Behind Cloudflare Access: the identity that will sign in and redeem it (required there). */
  email: z.string().trim().toLowerCase().email().max(320).optional(),
  expiresInSeconds: z.number().int().min(60).max(MAX_INVITE_TTL_SECONDS).optional(),
});

/** `POST /api/people/invites`: each scope names exactly what it needs, and a rule must parse. */
export const InviteBody = InviteFields.transform((body, ctx) => {
  const fail = (message: string) => {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  if (body.scope !== "agent" && body.agent !== undefined) return fail(`scope "${body.scope}" takes no agent`);
  if (body.scope !== "rule" && body.rule !== undefined) return fail(`scope "${body.scope}" takes no rule`);
  const scoped = PeopleScope.safeParse({
    scope: body.scope,
    ...(body.agent === undefined ? {} : { agent: body.agent }),
    ...(body.rule === undefined ? {} : { rule: body.rule }),
  });
  if (!scoped.success)
    return fail(`scope "${body.scope}" needs ${body.scope === "agent" ? "agent" : "rule"}`);
  if (scoped.data.scope === "rule") {
    const parsed = parseRule(scoped.data.rule);
    if (!parsed.ok) return fail(`rule: ${parsed.message}`);
  }
  return {
    name: body.name,
    scope: scoped.data,
    email: body.email ?? null,
    expiresInSeconds: body.expiresInSeconds ?? DEFAULT_INVITE_TTL_SECONDS,
  };
});
export type InviteBody = z.output<typeof InviteBody>;

/** What the inbox records of a new invite. */
export interface NewInvite {
  inviteId: string;
  name: string;
  scope: PeopleScope;
  email: string | null;
  expiresAt: number;
}

/** An invite not yet redeemed, as `GET /api/people` lists it. */
export interface InviteView {
  inviteId: string;
  name: string;
  scope: PeopleScope;
  email: string | null;
  createdAt: number;
  expiresAt: number;
}

/** Someone who redeemed an invite: a person of their own who answers the inviter's cards in scope. */
export interface ApproverView {
  /** `approver:<id>` without Access, the identity's email behind it. */
  personId: string;
  approverId: string;
  name: string;
  scope: PeopleScope;
  email: string | null;
  createdAt: number;
  redeemedAt: number;
  removedAt: number | null;
}

/** `GET /api/people`: live approvers, then invites waiting to be redeemed. */
export interface PeopleView {
  approvers: ApproverView[];
  invites: InviteView[];
}

/** Why an invite cannot be redeemed: unknown, spent, expired, removed or for another identity. */
export type RedeemRefusal = "unknown" | "spent" | "expired" | "removed" | "wrong_person";

/**
 * What the escalation path reaches of an approver: who, what they may see (a card outside it never
 * reaches them), and an address only where one is known.
 */
export interface ApproverContact {
  personId: string;
  name: string;
  scope: PeopleScope;
  email?: string;
}
