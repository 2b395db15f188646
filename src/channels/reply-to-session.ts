// A linked account's reply, in its direct messages, to one of its cards' messages (the card or its
// receipt): the text goes to that card's session as a message, sent as the account (a device of its
// person, with the rights the person's inbox has there and no more) under the API's own limits.
import { SendMessageCommand } from "../protocol/commands";
import { MAX_MESSAGE_CHARS } from "../protocol/limits";
import { inboxStub } from "../session/inbox-report/inbox-rpc";
import { answerAsAccount, refusalWords } from "./answer-as-account";
import type { ChatAccount } from "./channel-directory";

export const NOT_A_CARD =
  "Not sent: that message is not one of your Parley cards. Reply to a card's message to send its session a message.";
export const NO_TEXT = "Not sent: only text can be sent to a session.";
export const TOO_LONG = `Not sent: a message to a session is at most ${MAX_MESSAGE_CHARS} characters.`;

/** What a reply is: the platform's id of the message it answers, its text, and its own id (to send it once). */
export interface ChatReply {
  repliedTo: string;
  text: string;
  replyId: string;
}

/**
 * Sends `reply` into the session of the card message it answers, when that message was sent to
 * `account`; what to tell the account ("Sent to <title>.", or why nothing was sent).
 */
export async function replyToSession(env: Env, account: ChatAccount, reply: ChatReply): Promise<string> {
  const text = reply.text.trim();
  if (!text) return NO_TEXT;
  const command = SendMessageCommand.safeParse({
    type: "send_message",
    text,
    // Per account and reply: a platform that delivers the same reply twice sends it once.
    requestId: `${account.platform}-${reply.replyId}`.slice(0, 64),
  });
  if (!command.success) return text.length > MAX_MESSAGE_CHARS ? TOO_LONG : NO_TEXT;
  const session = await inboxStub(env, account.person).chatMessageSession(account.linkId, reply.repliedTo);
  if (!session) return NOT_A_CARD;
  const outcome = await answerAsAccount(env, account, session.sessionId, command.data);
  if (!outcome.ok) return refusalWords(outcome.error) ?? `Not sent: ${outcome.error.message}`;
  return `Sent to ${session.title}.`;
}
