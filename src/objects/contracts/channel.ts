// What the Worker and the inboxes may call on the one ChannelObject (src/channels/channel-object.ts),
// behind every chat platform's webhooks: linking accounts and the See all pages. Types only.
import type { ChannelAccountView, ChatPlatform } from "../../protocol/reach/channels";

/** What a See all link opens: one card of one person, as the chat account that pressed for it. */
export interface SeeAllGrant {
  person: string;
  platform: ChatPlatform;
  accountId: string;
  name: string;
  sessionId: string;
  interactionId: string;
  /** The account's link the code was minted under: the code and its page last as long as it. */
  linkId: string;
}

/** A redeemed code: what it opens, and the share link of the page it opens (recorded here). */
export interface SeeAllOpening extends SeeAllGrant {
  page: { linkId: string; expiresAt: number };
}

export interface ChannelRpc extends Rpc.DurableObjectBranded {
  /**
   * A one-time code `person` sends the bot to link an account; null when they hold too many. With
   * `approverId`, the code is that approver's of `person`: the account answers as the approver.
   */
  mintLinkCode(
    person: string,
    platform: ChatPlatform,
    approverId?: string | null,
  ): Promise<{ code: string; expiresAt: number } | null>;
  /** `person`'s own accounts, or with `approverId` only that approver's. */
  listLinks(person: string, approverId?: string | null): Promise<ChannelAccountView[]>;
  /**
   * Unlinks one of `person`'s accounts (or their approver's): its clicks stop answering at once, its inbox stops sending
   * to it and its See all pages are revoked (retried on the alarm until done); null when no such link.
   */
  unlink(person: string, linkId: string, approverId?: string | null): Promise<ChannelAccountView | null>;
  /** Unlinks every account of a removed approver. */
  unlinkApprover(approverId: string): Promise<void>;
  /**
   * Spends a See all code: the card it opens and the share link of its page, the first time within
   * its life while its account's link lasts; null ever after.
   */
  redeemSeeAll(code: string): Promise<SeeAllOpening | null>;
  /** Whether a See all page's share link may stay open (its account's link lasts); checked after it opened. */
  seeAllPageIsLive(pageLinkId: string): Promise<boolean>;
  /** Which of `linkIds` are an account's link now (an inbox asks before it sends). */
  liveLinks(linkIds: string[]): Promise<string[]>;
  /** `POST /api/channels/<platform>`, forwarded by the Worker once the platform is configured. */
  fetch(request: Request): Promise<Response>;
}
