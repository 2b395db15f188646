// A linked account's reply, in its direct messages, to one of its cards' messages (the card or its
// receipt): the text becomes a message for that card's session, sent as the account (a device of its
// person, with the rights the person's inbox has there and no more) under the API's own limits.

import { MAX_MESSAGE_CHARS } from "../protocol/limits";
import { SendMessageCommand, type SessionCommand } from "../protocol/wire/commands";

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

/** The message command `reply` of a `platform` account sends its card's session, or why it sends none. */
export function replyCommand(
  platform: string,
  reply: ChatReply,
): { command: SessionCommand } | { refusal: string } {
  const text = reply.text.trim();
  if (!text) return { refusal: NO_TEXT };
  const command = SendMessageCommand.safeParse({
    type: "send_message",
    text,
    // Per account and reply: a platform that delivers the same reply twice sends it once.
    requestId: `${platform}-${reply.replyId}`.slice(0, 64),
  });
  if (!command.success) return { refusal: text.length > MAX_MESSAGE_CHARS ? TOO_LONG : NO_TEXT };
  return { command: command.data };
}
