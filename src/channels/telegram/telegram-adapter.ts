// The Chat SDK's Telegram adapter, built from Parley's configuration (never from process.env), in
// webhook mode, and the inbox's sender over its Bot API calls: a card is posted as literal text with
// an inline keyboard (src/channels/telegram/telegram-card.ts) and edited to its receipt (which drops the
// keyboard); text is asked for with a forced reply.
import { createTelegramAdapter, type TelegramAdapter } from "@chat-adapter/telegram";
import { ConsoleLogger } from "chat";
import type { TelegramConfig } from "../../config";
import { inert } from "../../protocol/text/inert-text";
import { cardMessage } from "../card-message";
import type { TextWanted } from "../channel-hooks";
import type { ChatSender } from "../chat-sender";
import { telegramCard } from "./telegram-card";

/**
 * The adapter's own Bot API call (with its errors, which the outbox reads), for what its messages
 * cannot send: a forced reply, and text that must stay literal.
 */
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

/** Where a message of thread `threadId` goes, as the Bot API names it. */
function targetOf(adapter: TelegramAdapter, threadId: string): Record<string, unknown> {
  const thread = adapter.decodeThreadId(threadId);
  return {
    chat_id: thread.chatId,
    ...(typeof thread.messageThreadId === "number" ? { message_thread_id: thread.messageThreadId } : {}),
    ...(thread.businessConnectionId ? { business_connection_id: thread.businessConnectionId } : {}),
  };
}

/** The Bot API's message id in a message id the adapter made (`<chatId>:<messageId>`). */
function messageIdOf(messageId: string): number {
  return Number(messageId.split(":").pop());
}

export function telegramSender(config: TelegramConfig): ChatSender {
  const adapter = telegramAdapter(config);
  const api = adapter as unknown as BotApi;
  return {
    async post(threadId, message) {
      const sent = (await api.telegramFetch("sendMessage", {
        ...targetOf(adapter, threadId),
        ...telegramCard(cardMessage(message)),
      })) as { message_id: number; chat: { id: number } };
      // The id the adapter gives its own messages, so both read it alike.
      return `${sent.chat.id}:${sent.message_id}`;
    },
    async edit(threadId, messageId, text) {
      await api.telegramFetch("editMessageText", {
        ...targetOf(adapter, threadId),
        message_id: messageIdOf(messageId),
        text: inert(text),
        reply_markup: { inline_keyboard: [] },
      });
    },
    async update(threadId, messageId, message) {
      await api.telegramFetch("editMessageText", {
        ...targetOf(adapter, threadId),
        message_id: messageIdOf(messageId),
        ...telegramCard(cardMessage(message)),
      });
    },
    // No parse_mode: Telegram shows the text as it is.
    async notice(threadId, notice) {
      await api.telegramFetch("sendMessage", {
        ...targetOf(adapter, threadId),
        text: inert(`${notice.heading}: ${notice.text}`),
      });
    },
  };
}
