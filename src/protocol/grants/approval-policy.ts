// A second person for what matters: the deployment's rules (`APPROVAL_POLICIES`) that make a call
// wait for approvals from several distinct answerers, and how far a card has got.
import * as z from "zod";
import { ApprovalCount } from "../cards/approval-count";
import { Decider } from "../cards/decider";
import { lazySchema } from "../lazy-schema";
import { FRAME_MARK_FIELDS } from "../session/agents";
import { InteractionId, ToolCallId } from "../session/session";
import { GrantRuleText } from "./grants";

/** Most approvals a rule may ask for: more distinct answerers than this is not a rule, it is a meeting. */
export const MAX_REQUIRED_APPROVALS = 5;
/** Most rules `APPROVAL_POLICIES` may hold. */
export const MAX_APPROVAL_POLICIES = 100;

/** One rule: calls it covers (Claude Code's syntax, as grants use) need `approvals` distinct answerers. */
export const ApprovalPolicy = lazySchema(() =>
  z.strictObject({
    rule: GrantRuleText,
    approvals: z
      .number()
      .int()
      .min(2, "approvals must be at least 2 (one is every card's own)")
      .max(MAX_REQUIRED_APPROVALS, `approvals must be at most ${MAX_REQUIRED_APPROVALS}`),
  }),
);
export type ApprovalPolicy = z.infer<typeof ApprovalPolicy>;

export const ApprovalPolicies = lazySchema(() => z.array(ApprovalPolicy).max(MAX_APPROVAL_POLICIES));
export type ApprovalPolicies = z.infer<typeof ApprovalPolicies>;

/** `approval_counted`: one more distinct answerer approved a card that needs several; it stays open. */
export const ApprovalCounted = lazySchema(() =>
  z.object({
    toolCallId: ToolCallId,
    interactionId: InteractionId,
    approvals: ApprovalCount,
    decider: Decider,
    /** The device that approved (the client's own name for itself). */
    deviceId: z.string().nullable(),
    at: z.number(),
    ...FRAME_MARK_FIELDS,
  }),
);
export type ApprovalCounted = z.infer<typeof ApprovalCounted>;

export { ApprovalCount } from "../cards/approval-count";
export { approvalsText } from "../cards/approval-words";
