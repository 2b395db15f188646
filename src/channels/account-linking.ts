// Linking and unlinking a chat account, with everything that must follow: a code is taken only
// within the throttle, a new link ends the account's link before it (in whatever inbox it was),
// and an ended link's inbox removal and See all pages are owed as rows until each is done.
import { logSecurityEvent } from "../log/security-log";
import type { ChatPlatform } from "../protocol/reach/channels";
import type { ChannelDirectory, ChatAccount } from "./channel-directory";
import type { LinkRevocations, RevocationTargets } from "./link-revocations";
import { type LinkThrottle, throttledWords } from "./link-throttle";
import type { SeeAllCodes } from "./see-all-codes";

/** What a code sent to a bot did: the account it linked, or why it did nothing (and what to say). */
export type LinkOutcome =
  | { type: "linked"; account: ChatAccount }
  | { type: "refused"; code: "invalid_code" | "rate_limited"; words: string };

export const CODE_REFUSED = "That code is unknown, used or expired. Make a new one in your Parley inbox.";

/** What a newly linked account is told; `where` the cards arrive ("here"). An approver's is never the person's. */
export function linkedWords(account: ChatAccount, where = "here"): string {
  if (account.approverId)
    return `Linked to Parley as an approver of ${account.person}. Cards their escalation sends you will arrive ${where}, with buttons.`;
  return `Linked to Parley as ${account.person}. Cards that wait for you will arrive ${where}, with buttons.`;
}

/** Where a new link goes, besides the revocations: the person's inbox starts sending to it. */
export interface LinkTargets extends RevocationTargets {
  addChatLink(account: ChatAccount, origin: string): Promise<void>;
}

export interface LinkingParts {
  directory: ChannelDirectory;
  throttle: LinkThrottle;
  seeAllCodes: SeeAllCodes;
  revocations: LinkRevocations;
  now: () => number;
  /** Moves the channel object's alarm to its earliest deadline (a revocation's retry, a failure's expiry). */
  rearm(): void;
}

export class AccountLinking {
  constructor(
    private readonly parts: LinkingParts,
    private readonly targets: LinkTargets,
  ) {}

  /** Spends `code` for an account of `platform` that wrote from thread `account.threadId`. */
  async link(
    platform: ChatPlatform,
    code: string,
    account: { accountId: string; name: string; threadId: string },
    origin: string,
  ): Promise<LinkOutcome> {
    const { directory, throttle, now } = this.parts;
    const throttled = throttle.refusal(platform, account.accountId);
    if (throttled) {
      logSecurityEvent("rate_limited", { reason: `link_code_${throttled.scope}` });
      return { type: "refused", code: "rate_limited", words: throttledWords(throttled, now()) };
    }
    const linked = directory.link(platform, code, account);
    if (!linked) {
      throttle.failed(platform, account.accountId);
      logSecurityEvent("credential_refused", { reason: `link_code_${platform}` });
      this.parts.rearm();
      return { type: "refused", code: "invalid_code", words: CODE_REFUSED };
    }
    if (linked.replaced) this.owe(linked.replaced);
    await this.targets.addChatLink(linked.account, origin);
    await this.deliverDue(now());
    return { type: "linked", account: linked.account };
  }

  /** Unlinks one of `person`'s accounts (or their approver's): its inbox stops sending to it and its See all pages close. */
  async unlink(
    person: string,
    linkId: string,
    approverId: string | null = null,
  ): Promise<ChatAccount | null> {
    const account = this.parts.directory.unlink(person, linkId, approverId);
    if (!account) return null;
    this.owe(account);
    await this.deliverDue(this.parts.now());
    return account;
  }

  /** A removed approver's accounts are unlinked, every one. */
  async unlinkApprover(approverId: string): Promise<void> {
    const { directory } = this.parts;
    for (const account of directory.accountsOfApprover(approverId)) {
      if (directory.unlink(account.person, account.linkId, approverId)) this.owe(account);
    }
    await this.deliverDue(this.parts.now());
  }

  /** Tries what is owed and due; what fails waits on the alarm. Never throws. */
  async deliverDue(now: number): Promise<void> {
    await this.parts.revocations.deliverDue(now, this.targets);
    this.parts.rearm();
  }

  // Written in the same step as the link's end, so a crash after it still owes every revocation.
  private owe(ended: ChatAccount): void {
    const pages = this.parts.seeAllCodes.endLink(ended.linkId);
    this.parts.revocations.add(ended.person, ended.linkId, pages);
    logSecurityEvent("link_revoked", { linkId: ended.linkId, reason: `chat_${ended.platform}` });
    this.parts.rearm();
  }
}
