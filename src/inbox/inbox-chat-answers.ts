// A linked account's answer to one of its cards' messages, in one call from the channel object: the
// press, modal or reply read against the message once, sent to the card's session as the account,
// and the message edited to its receipt at once when that resolved the card (the inbox's alarm only
// retries an edit that failed). What to tell the account comes back. An account an invited approver
// linked answers as that approver, with their rights, while they are one; never as the person.
import { acceptedWords, refusalWords } from "../channels/answer-words";
import { modalCommandFor } from "../channels/card-choices";
import { receiptOfResolution } from "../channels/card-receipt";
import type { ChatSender } from "../channels/chat-sender";
import { NOT_A_CARD, replyCommand } from "../channels/reply-to-session";
import type { ChatAnswerer, ChatAsk } from "../objects/contracts/inbox-chat";
import type { InboxAction, InboxActor } from "../objects/contracts/session-inbox";
import type { Outcome } from "../objects/outcome";
import type { ChatPlatform } from "../protocol/reach/channels";
import { PLATFORM_NAMES } from "../protocol/reach/platform-names";
import { InteractionResolution } from "../protocol/session/session";
import type { SessionCommand } from "../protocol/wire/commands";
import type { InboxChat } from "./inbox-chat";
import type { ChatMessageOfCard } from "./inbox-chat-messages";
import { LEASE_MS } from "./inbox-chat-sending";

export const NOT_YOUR_CARD = "This button is not for a card of yours.";
export const NOT_OFFERED = "This card does not offer that choice.";
export const APPROVER_NO_MESSAGES =
  "Not sent: an approver answers cards; only the person they answer for sends their sessions messages.";
export const NO_LONGER_APPROVER = "You are no longer an approver of this person, so this answers nothing.";

/** What an answer is lent: the inbox's chat part, its clock, the sessions' door and each platform's sender. */
export interface ChatAnswerPorts {
  chat: InboxChat;
  now(): number;
  /** Acts `action` on session `sessionId` as `actor`, with the rights that actor has there. */
  toSession(sessionId: string, actor: InboxActor, action: InboxAction): Promise<Outcome>;
  senderFor(platform: ChatPlatform): Promise<ChatSender | null>;
}

/** Takes `ask` of `account` to its card's session; what to tell the account, or null (the receipt says it). */
export async function answerAsAccount(
  ports: ChatAnswerPorts,
  account: ChatAnswerer,
  ask: ChatAsk,
): Promise<string | null> {
  const { messages } = ports.chat;
  const actor = actorOf(ports.chat, account);
  if (!actor) return NO_LONGER_APPROVER;
  if (ask.type === "reply") {
    if (actor.kind === "approver") return APPROVER_NO_MESSAGES;
    const made = replyCommand(account.platform, ask);
    if ("refusal" in made) return made.refusal;
    const session = messages.sessionOfMessage(account.linkId, ask.repliedTo);
    if (!session) return NOT_A_CARD;
    const outcome = await ports.toSession(session.sessionId, actor, {
      type: "command",
      command: made.command,
    });
    if (!outcome.ok) return refusalWords(outcome.error) ?? `Not sent: ${outcome.error.message}`;
    return `Sent to ${session.title}.`;
  }
  if (ask.type === "modal") {
    const message = messages.messageOf(ask.ref, account.linkId);
    if (!message) return NOT_YOUR_CARD;
    const command = modalCommandFor(message.card, ask.maxInputs, ask.texts);
    if (!command) return NOT_OFFERED;
    // The session names the field it refused ("age: must be a number"); the form can be sent again.
    // Taken, the modal just closes: words back would be shown in it as a refusal.
    return answerCard(ports, actor, message, command, {
      refused: (message) => `Not sent: ${message}`,
      accepted: () => null,
    });
  }
  const pressed = messages.press(ask.ref, account.linkId, ask.code, ask.text);
  if (pressed.type === "unknown") return NOT_YOUR_CARD;
  if (pressed.type === "not_offered") return NOT_OFFERED;
  if (pressed.type === "resolved") return `Already decided: ${pressed.receipt}.`;
  if (pressed.type === "progress") {
    // Part of the answer is kept with the message, which now shows the rest.
    await messages.showAgain(pressed.message, await ports.senderFor(pressed.message.row.platform));
    return null;
  }
  return answerCard(ports, actor, pressed.message, pressed.command, {
    refused: (message) => message,
    accepted: acceptedWords,
  });
}

/** Sends a card's command; once it resolved the card, edits the message to the receipt before answering. */
async function answerCard(
  ports: ChatAnswerPorts,
  actor: InboxActor,
  message: ChatMessageOfCard,
  command: SessionCommand,
  words: {
    refused(message: string): string;
    accepted(commandType: string, result: unknown): string | null;
  },
): Promise<string | null> {
  const outcome = await ports.toSession(message.card.sessionId, actor, {
    type: "command",
    command,
  });
  if (!outcome.ok) return refusalWords(outcome.error) ?? words.refused(outcome.error.message);
  const resolution = InteractionResolution.safeParse(outcome.result);
  if (command.type !== "extend_deadline" && resolution.success) {
    const now = ports.now();
    const receipt = receiptOfResolution(message.card.kind, resolution.data);
    const row = ports.chat.claimReceipt(message.row, receipt, now + LEASE_MS);
    if (row) await ports.chat.sending.deliverNow(row, now, ports.senderFor, message.row);
    return null;
  }
  return words.accepted(command.type, outcome.result);
}

/**
 * The account as its session sees it: a device of its person ("Ana · Telegram"), or the approver
 * who linked it ("Bo · Telegram", a person of their own); null once that approver was removed.
 * Either side's word that the link is an approver's makes it one.
 */
function actorOf(chat: InboxChat, account: ChatAnswerer): InboxActor | null {
  const approverId = account.approverId ?? chat.approverOf(account.linkId);
  if (approverId) {
    const approver = chat.people.live(approverId);
    if (!approver) return null;
    const name = `${approver.name} · ${PLATFORM_NAMES[account.platform]}`;
    const { personId } = approver;
    return { kind: "approver", person: account.person, approverId, personId, name, device: "chat" };
  }
  return {
    kind: "chat",
    person: account.person,
    platform: account.platform,
    accountId: account.accountId,
    name: account.name,
  };
}
