// The Chat SDK's Telegram adapter, built from Parley's configuration (never from process.env), in
// webhook mode, and the inbox's sender over it: a card is posted with an inline keyboard and edited
// to its receipt (which drops the keyboard); text is asked for with a forced reply.
import { createTelegramAdapter, type TelegramAdapter } from "@chat-adapter/telegram";
import { ConsoleLogger } from "chat";
import type { TelegramConfig } from "../config";
import { cardMessage } from "./card-message";
import type { TextWanted } from "./channel-hooks";
import type { ChatSender } from "./chat-sender";

/** The adapter's own Bot API call (with its errors), for what its cards cannot send: a forced reply. */
type BotApi = { telegramFetch(method: string, payload: Record<string, unknown>): Promise<unknown> };

/** Asks `chatId` for text with a forced reply (Telegram opens the reply box); answers the message's id. */
export async function askForText(
  adapter: TelegramAdapter,
  chatId: number,
  wanted: TextWanted,
): Promise<string> {
  const sent = (await (adapter as unknown as BotApi).telegramFetch("sendMessage", {
    chat_id: chatId,
    text: wanted.prompt,
    reply_markup: { force_reply: true, input_field_placeholder: wanted.label },
  })) as { message_id: number };
  return String(sent.message_id);
}

export function telegramAdapter(config: TelegramConfig): TelegramAdapter {
  return createTelegramAdapter({
    botToken: config.botToken,
    secretToken: config.secretToken,
    mode: "webhook",
    ...(config.apiBaseUrl ? { apiBaseUrl: config.apiBaseUrl } : {}),
    ...(config.botUserName ? { userName: config.botUserName } : {}),
    logger: new ConsoleLogger("warn").child("telegram"),
  });
}

export function telegramSender(config: TelegramConfig): ChatSender {
  const adapter = telegramAdapter(config);
  return {
    async post(threadId, message) {
      const sent = await adapter.postMessage(threadId, cardMessage(message));
      return sent.id;
    },
    async edit(threadId, messageId, text) {
      await adapter.editMessage(threadId, messageId, text);
    },
    async update(threadId, messageId, message) {
      await adapter.editMessage(threadId, messageId, cardMessage(message));
    },
  };
}
