// What a platform's bot may ask of the channel object: who an account is, link it, and answer a
// card's choice — with the text some choices need (a reason, an "Other" answer, plan feedback),
// which each platform asks for in its own way (a forced reply on Telegram, a modal elsewhere).
import type { ChatPlatform } from "../protocol/reach/channels";
import type { LinkOutcome } from "./account-linking";
import type { ChannelDirectory, ChatAccount } from "./channel-directory";
import type { ChatReply } from "./reply-to-session";

/** What a choice needs from the person before it can be sent. */
export interface TextWanted {
  /** The question asked ("Why deny it?"). */
  prompt: string;
  /** A short name for the field (a modal's label, a reply box's placeholder). */
  label: string;
}

export interface ChannelHooks {
  directory: ChannelDirectory;
  /**
   * An account sent link code `code` from its direct-message thread: linked (its person's inbox
   * lists it and starts sending it cards, and its link before ends), or refused with what to say.
   */
  link(
    platform: ChatPlatform,
    code: string,
    account: { accountId: string; name: string; threadId: string },
    origin: string,
  ): Promise<LinkOutcome>;
  /** The text choice `code` of message `ref` needs first; null when it is sent at a press. */
  textWanted(account: ChatAccount, ref: number, code: string): Promise<TextWanted | null>;
  /**
   * "See all" pressed on message `ref`: a fresh link, good once and for minutes, that opens the card
   * in Parley at `origin` as this account; or what to tell it instead.
   */
  seeAll(account: ChatAccount, ref: number, origin: string): Promise<{ url: string } | { refusal: string }>;
  /** A linked account chose `code` on message `ref` (with the text it asked for): what to tell it, or null. */
  chose(account: ChatAccount, ref: number, code: string, text?: string): Promise<string | null>;
  /**
   * A linked account replied, in its direct messages, to a message: sent to the session of the card
   * that message is (src/channels/reply-to-session.ts); what to tell the account.
   */
  replied(account: ChatAccount, reply: ChatReply): Promise<string>;
}
