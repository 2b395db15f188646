// The inbox's sender for Discord: a card posted to the linked account's direct message channel as a
// message with buttons, and later edited to its receipt, which keeps only the Message button.
import type { DiscordConfig } from "../../config";
import { inert } from "../../protocol/text/inert-text";
import { FILL_IN, modalFieldsOf } from "../card-choices";
import { cardMessage } from "../card-message";
import type { ChatCardMessage, ChatSender } from "../chat-sender";
import { DiscordApi } from "./discord-api";
import { DISCORD_MODAL_INPUTS } from "./discord-form";
import { discordCost, discordMessage, discordNotice } from "./discord-message";
import { messageButtonRow, withMessageButton } from "./discord-message-modal";

/** Discord's longest nonce. */
const NONCE_CHARS = 25;

/**
 * The same for every try of one delivery and different for any other, since Discord checks a nonce
 * against every recent message of the bot, in any channel.
 */
export async function nonceOf(threadId: string, ref: number, interactionId: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(`${threadId}\n${ref}\n${interactionId}`),
  );
  const base64 = btoa(String.fromCharCode(...new Uint8Array(digest)));
  return base64.replaceAll("+", "-").replaceAll("/", "_").slice(0, NONCE_CHARS);
}

/**
 * The message of a card; one that fits a modal (a small form) is filled in here, any other in
 * Parley. Every card, shown whole or not, can send its session a message (Message).
 */
function render(message: ChatCardMessage) {
  const extra = modalFieldsOf(message.card, DISCORD_MODAL_INPUTS)
    ? [{ code: FILL_IN, label: "Fill in", style: "primary" as const }]
    : [];
  return withMessageButton(discordMessage(cardMessage(message, { extra, cost: discordCost })));
}

/** Posts, edits to the receipt, and shows a card anew as far as its presses got (`update`). */
export function discordSender(config: DiscordConfig): ChatSender & {
  update(threadId: string, messageId: string, message: ChatCardMessage): Promise<void>;
} {
  const api = new DiscordApi(config);
  return {
    async post(threadId, message) {
      const nonce = await nonceOf(threadId, message.ref, message.card.interactionId);
      return api.createMessage(threadId, render(message), nonce);
    },
    async update(threadId, messageId, message) {
      await api.replaceMessage(threadId, messageId, render(message));
    },
    async edit(threadId, messageId, text) {
      await api.editMessage(threadId, messageId, inert(text), [messageButtonRow()]);
    },
    async notice(threadId, notice) {
      const nonce = await nonceOf(threadId, notice.ref, `notice-${notice.rung}`);
      await api.createMessage(threadId, discordNotice(notice.heading, inert(notice.text)), nonce);
    },
  };
}
