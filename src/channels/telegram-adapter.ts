// The Chat SDK's Telegram adapter, built from Parley's configuration (never from process.env), in
// webhook mode, and the inbox's sender over it: a card is posted with an inline keyboard and edited
// to its receipt (which drops the keyboard).
import { createTelegramAdapter, type TelegramAdapter } from "@chat-adapter/telegram";
import { ConsoleLogger } from "chat";
import type { TelegramConfig } from "../config";
import { cardMessage } from "./card-message";
import type { ChatSender } from "./chat-sender";

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
  };
}
