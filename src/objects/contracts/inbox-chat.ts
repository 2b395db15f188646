// What the channel object asks of a person's inbox about their chat accounts: which cards went to
// which account's messages, and what a press on one comes to. Types only.
import type { ChatPlatform } from "../../protocol/channels";
import type { SessionCommand } from "../../protocol/commands";
import type { InboxCard } from "../../protocol/inbox";

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
  /** A press on message `ref` of chat link `linkId`: the card's command once its answer is whole (src/inbox/inbox-chat.ts). */
  chatPress(ref: number, linkId: string, code: string, text: string | null): Promise<ChatPressOutcome>;
}
