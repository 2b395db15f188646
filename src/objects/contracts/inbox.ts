// What the Worker, the sessions and the channel object may call on a person's InboxObject
// (src/inbox/inbox-object.ts), split by concern; the chat and people parts have rooms of their
// own (inbox-chat.ts, inbox-people.ts). Types only, so the session builds on it, not on the inbox.

import type { InboxView, OutboxBatch } from "../../protocol/inbox/inbox";
import type { InboxLinkView } from "../../protocol/inbox/inbox-links";
import type { AgentKeyCheck, AgentKeyLink, AgentKeyView } from "../../protocol/machines/agent-keys";
import type { DeliveryView, PushSubscriptionBody } from "../../protocol/reach/notify";
import type { ErrorBody } from "../../protocol/wire/errors";
import type { InboxChatRpc } from "./inbox-chat";
import type { InboxGrantsRpc, InboxPeopleRpc } from "./inbox-people";

export type { ChatAnswerer, ChatAsk, ChatMessageSession, InboxChatAccount } from "./inbox-chat";

/** The projection the sessions feed and the person reads. */
export interface InboxProjectionRpc {
  /** Applies a session's outbox rows it has not applied yet; answers the highest seq it now holds. */
  apply(batch: OutboxBatch): Promise<{ appliedThrough: number }>;
  /** Removes a deleted or expired session and its cards. */
  forget(sessionId: string): Promise<void>;
  /** Everything `person` (this inbox's owner) has: sessions and open cards. */
  view(person: string): Promise<InboxView>;
  /** Whether session `sessionId` reported to this inbox (it belongs to this person). */
  holds(sessionId: string): Promise<boolean>;
  /** Rows this instance wrote and read since it started, and the inbox's last event seq. */
  stats(): Promise<{ rowsWritten: number; rowsRead: number; events: number }>;
  /** The person's event stream or socket (a ticket spent, a link checked). */
  fetch(request: Request): Promise<Response>;
}

/** Inbox links, and what they opened. */
export interface InboxLinksRpc {
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
  /** Spends a sign-in code of `npm run dev` (src/router/access/sign-in-route.ts); false when spent before. */
  spendSignInCode(id: string, expiresAt: number): Promise<boolean>;
}

/** A device an approver subscribes (its notifications open `url`), or the id of one they remove. */
export type ApproverDeviceChange = { add: PushSubscriptionBody; url: string } | { remove: string };

/** The person's devices' push subscriptions and what was sent to them. */
export interface InboxPushRpc {
  /** Stores a device's push subscription for every card of this person; the refusal, or null. */
  subscribePush(
    body: PushSubscriptionBody,
    by: { linkId: string | null; person: string },
    url: string,
  ): Promise<ErrorBody | null>;
  /** False when the device had no subscription (or one another link made). */
  unsubscribePush(deviceId: string, linkId: string | null): Promise<boolean>;
  /**
   * Approver `personId`'s own devices (pushed only the rungs that reach them) after `change`, by the
   * ids they subscribed them with; the refusal when they keep the most devices allowed.
   */
  approverDevices(personId: string, change?: ApproverDeviceChange): Promise<string[] | ErrorBody>;
  deliveries(): Promise<DeliveryView[]>;
}

/** The person's agent keys and the external sessions they keyed. */
export interface InboxAgentKeysRpc {
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
}

export interface InboxRpc
  extends Rpc.DurableObjectBranded,
    InboxProjectionRpc,
    InboxLinksRpc,
    InboxPushRpc,
    InboxAgentKeysRpc,
    InboxChatRpc,
    InboxPeopleRpc,
    InboxGrantsRpc {}
