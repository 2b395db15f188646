// The RPC surface a session (and the Worker) needs of a person's Inbox object, declared beside the
// session that reports to it so the inbox builds on the session's parts, never the other way round.

import type { AnsweringView } from "../../people/answering-view";
import type {
  ApproverContact,
  ApproverView,
  InviteView,
  NewInvite,
  PeopleView,
  RedeemRefusal,
} from "../../people/people-terms";
import type { AgentKeyCheck, AgentKeyLink, AgentKeyView } from "../../protocol/agent-keys";
import type { ChatPlatform } from "../../protocol/channels";
import type { SessionCommand } from "../../protocol/commands";
import type { DecisionPage, DecisionQuery, DecisionRecord } from "../../protocol/decisions";
import type { EmailAction, EmailOutcome } from "../../protocol/email";
import type { ErrorBody } from "../../protocol/errors";
import type { GrantQuery, GrantVerdict, GrantView, NewGrant } from "../../protocol/grants";
import type { InboxCard, InboxView, OutboxBatch } from "../../protocol/inbox";
import type { InboxLinkView } from "../../protocol/inbox-links";
import type { DeliveryView, PushSubscriptionBody } from "../../protocol/notify";

/** A chat account linked to a person, as the channel object hands it to their inbox. */
export interface InboxChatAccount {
  linkId: string;
  platform: ChatPlatform;
  accountId: string;
  name: string;
  threadId: string;
  /** The deployment's origin the account linked through, for links back to the inbox. */
  origin: string;
}

/** What a press on a card's message came to: a command for the card's session, or a message shown again. */
export type ChatPressOutcome =
  | { type: "command"; card: InboxCard; command: SessionCommand }
  | { type: "progress" }
  | { type: "resolved"; receipt: string }
  | { type: "unknown" }
  | { type: "not_offered" };

/** The session a card's chat message belongs to, and the title the inbox shows it under. */
export interface ChatMessageSession {
  sessionId: string;
  title: string;
}

export interface InboxRpc extends Rpc.DurableObjectBranded {
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
  /** Applies a session's outbox rows it has not applied yet; answers the highest seq it now holds. */
  apply(batch: OutboxBatch): Promise<{ appliedThrough: number }>;
  /** Removes a deleted or expired session and its cards. */
  forget(sessionId: string): Promise<void>;
  /** Everything `person` (this inbox's owner) has: sessions and open cards. */
  view(person: string): Promise<InboxView>;
  /** Whether session `sessionId` reported to this inbox (it belongs to this person). */
  holds(sessionId: string): Promise<boolean>;
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
  /** Records a link the Worker signs next; null when the person holds too many. */
  addLink(
    link: Pick<InboxLinkView, "linkId" | "role" | "label" | "expiresAt">,
  ): Promise<InboxLinkView | null>;
  listLinks(): Promise<InboxLinkView[]>;
  linkIsLive(linkId: string): Promise<boolean>;
  /** Records that inbox link `linkId` opened session `sessionId` (it holds a share link of that id). */
  noteOpened(linkId: string, sessionId: string): Promise<void>;
  /** The sessions inbox link `linkId` opened, whose share links revoking it revokes. */
  openedThrough(linkId: string): Promise<string[]>;
  /** Revokes a link and closes its streams at once; null when there is no such link. */
  revokeLink(linkId: string): Promise<InboxLinkView | null>;
  /** Ends the streams and sockets opened with `tag`. */
  closeStreams(tag: string, code: number, reason: string): Promise<void>;
  /** Stores a device's push subscription for every card of this person; the refusal, or null. */
  subscribePush(
    body: PushSubscriptionBody,
    by: { linkId: string | null; person: string },
    url: string,
  ): Promise<ErrorBody | null>;
  /** False when the device had no subscription (or one another link made). */
  unsubscribePush(deviceId: string, linkId: string | null): Promise<boolean>;
  deliveries(): Promise<DeliveryView[]>;
  /** A chat account linked to this person starts getting their cards (src/inbox/inbox-chat.ts). */
  addChatLink(account: InboxChatAccount): Promise<void>;
  removeChatLink(linkId: string): Promise<void>;
  /** The card behind button data `ref`, when it was sent to chat link `linkId`; null otherwise. */
  chatCard(ref: number, linkId: string): Promise<InboxCard | null>;
  /** The session of card message `messageId` (the platform's id) sent to chat link `linkId`; null otherwise. */
  chatMessageSession(linkId: string, messageId: string): Promise<ChatMessageSession | null>;
  /** The text choice `code` of message `ref` asks for before it is sent; null when none. */
  chatTextWanted(
    ref: number,
    linkId: string,
    code: string,
  ): Promise<{ prompt: string; label: string } | null>;
  /** A press on message `ref` of chat link `linkId`: the card's command once its answer is whole (src/inbox/inbox-chat.ts). */
  chatPress(ref: number, linkId: string, code: string, text: string | null): Promise<ChatPressOutcome>;
  /** Rows this instance wrote and read since it started, and the inbox's last event seq. */
  stats(): Promise<{ rowsWritten: number; rowsRead: number; events: number }>;
  fetch(request: Request): Promise<Response>;
  /** Records an agent key (a hash of its secret); null when the person holds too many. */
  addAgentKey(key: {
    keyId: string;
    label: string;
    hash: string;
    expiresAt: number | null;
  }): Promise<AgentKeyView | null>;
  listAgentKeys(): Promise<AgentKeyView[]>;
  checkAgentKey(keyId: string, hash: string): Promise<AgentKeyCheck>;
  /** Revokes a key; answers the agent links it was given (to revoke), or null when unknown. */
  revokeAgentKey(keyId: string): Promise<{ key: AgentKeyView; links: AgentKeyLink[] } | null>;
  /** Records an agent link key `keyId` was given; false when the key is no longer live. */
  noteAgentLink(keyId: string, link: AgentKeyLink): Promise<boolean>;
  /** The salt of keyed external session `key`'s current incarnation. */
  keyedSessionSalt(key: string): Promise<string>;
  /** A new salt for `key`, its incarnation salted `erased` being gone (compare-and-set). */
  renewKeyedSessionSalt(key: string, erased: string): Promise<string>;
  /** Spends a sign-in code of `npm run dev` (src/router/sign-in-route.ts); false when spent before. */
  spendSignInCode(id: string, expiresAt: number): Promise<boolean>;
}

export function inboxStub(env: Env, person: string): InboxRpc {
  return env.INBOXES.get(env.INBOXES.idFromName(person));
}
