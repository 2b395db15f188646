// What the channel object asks of a person's inbox about their chat accounts: which cards went to
// which account's messages, and an account's answer to one, taken to its session in one call. Types only.

import type { InboxCard } from "../../protocol/inbox/inbox";
import type { ChatPlatform } from "../../protocol/reach/channels";

/** A chat account linked to a person, as the channel object hands it to their inbox. */
export interface InboxChatAccount {
  linkId: string;
  platform: ChatPlatform;
  accountId: string;
  name: string;
  threadId: string;
  /** The deployment's origin the account linked through, for links back to the inbox. */
  origin: string;
  /** The person's approver the account answers as (linked from their answering page); absent: the person's own. */
  approverId?: string | null;
}

/** The linked account an answer comes from, as the channel object verified it. */
export interface ChatAnswerer {
  person: string;
  linkId: string;
  platform: ChatPlatform;
  accountId: string;
  name: string;
  /** The approver it answers as, with that approver's rights only; absent or null: the person. */
  approverId?: string | null;
}

/**
 * What a linked account did to one of its cards' messages: pressed choice `code` of message `ref`
 * (with the text it asked for), sent a modal's texts for it, or replied to the message with text.
 */
export type ChatAsk =
  | { type: "press"; ref: number; code: string; text: string | null }
  | { type: "modal"; ref: number; maxInputs: number; texts: Record<string, string> }
  | { type: "reply"; repliedTo: string; text: string; replyId: string };

/** The session a card's chat message belongs to, and the title the inbox shows it under. */
export interface ChatMessageSession {
  sessionId: string;
  title: string;
}

export interface InboxChatRpc {
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
  /**
   * Takes `ask` to its card's session as `account` (a device of this inbox's person), edits the
   * message it answered to the receipt at once when the card resolved, and answers what to tell
   * the account (null: the receipt says it). src/inbox/inbox-chat-answers.ts.
   */
  answerAsAccount(account: ChatAnswerer, ask: ChatAsk): Promise<string | null>;
}
