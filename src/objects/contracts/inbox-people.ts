// What the Worker and the sessions ask of a person's inbox about others and about decisions: the
// people who answer for them, their grants, the decision record and their email. Types only.
import type { AnsweringView } from "../../people/answering-view";
import type {
  ApproverContact,
  ApproverView,
  InviteView,
  NewInvite,
  PeopleView,
  RedeemRefusal,
} from "../../people/people-terms";
import type { GrantQuery, GrantVerdict, GrantView, NewGrant } from "../../protocol/grants/grants";
import type { DecisionPage, DecisionQuery, DecisionRecord } from "../../protocol/inbox/decisions";
import type { EmailAction, EmailOutcome } from "../../protocol/reach/email";

export interface InboxPeopleRpc {
  /** Records an invite to answer this person's cards; null when they keep too many people. */
  invitePerson(invite: NewInvite): Promise<InviteView | null>;
  /** Spends an invite once: its redeemer becomes approver `approverId` (as `signedInAs` behind Access). */
  redeemInvite(
    inviteId: string,
    approverId: string,
    signedInAs: string | null,
  ): Promise<{ ok: true; approver: ApproverView } | { ok: false; reason: RedeemRefusal }>;
  /** The person's approvers and invites waiting. */
  people(): Promise<PeopleView>;
  /** The approvers who may answer now: `{ personId, name, email? }` (the email behind Access only). */
  approvers(): Promise<ApproverContact[]>;
  /** Removes an approver (by person id) or an invite (by invite id); their sockets close at once. */
  removePerson(id: string): Promise<ApproverView | InviteView | null>;
  /** The cards approver `approverId` answers for `inviter` (this inbox's person); null once removed. */
  answering(inviter: string, approverId: string): Promise<AnsweringView | null>;
  /** The person's email addresses: add (a code is sent), verify, list, remove. */
  emailAddresses(action: EmailAction): Promise<EmailOutcome>;
}

export interface InboxGrantsRpc {
  /** Keeps a new grant of this person; null when they hold too many. */
  addGrant(grant: NewGrant): Promise<GrantView | null>;
  /** Live grants, and those ended in the last week. */
  listGrants(): Promise<GrantView[]>;
  /** Revokes a grant from the next request on; null when there is no such grant. */
  revokeGrant(grantId: string): Promise<GrantView | null>;
  /** What the grants decide for each call of a session (null: ask a person); counts the uses. */
  decideByGrants(query: GrantQuery): Promise<(GrantVerdict | null)[]>;
  /** A page of the decision record after a cursor. */
  decisions(query: DecisionQuery): Promise<DecisionPage>;
  /** The whole kept decision record, oldest first (the export). */
  allDecisions(): Promise<DecisionRecord[]>;
}
