// Telegram as the channel tests see it: updates signed with the webhook's secret token header, as
// Telegram sends them, and what the Bot API stand-in was asked.
import { runDurableObjectAlarm } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { ORIGIN } from "../../../helpers/session-harness";
import { TELEGRAM_BINDINGS, TELEGRAM_CONTROL_HOST, type TelegramCall } from "../../../helpers/telegram-api";
import { inboxObject, type Person } from "../../inbox/inbox-fixtures";

let updateId = Math.floor(Math.random() * 1_000_000);

export interface TelegramUser {
  id: number;
  first_name: string;
}

/** Posts one update to the webhook as Telegram does; `secret` spoils the header when given. */
export async function sendUpdate(update: Record<string, unknown>, secret?: string): Promise<Response> {
  updateId += 1;
  return exports.default.fetch(`${ORIGIN}/api/channels/telegram`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-telegram-bot-api-secret-token": secret ?? TELEGRAM_BINDINGS.TELEGRAM_WEBHOOK_SECRET_TOKEN,
    },
    body: JSON.stringify({ update_id: updateId, ...update }),
  });
}

/** A text message from `user`, in their private chat with the bot unless `chat` says otherwise. */
export function textFrom(user: TelegramUser, text: string, chat?: { id: number; type: string }) {
  const command = text.startsWith("/")
    ? [{ type: "bot_command", offset: 0, length: text.split(" ")[0]?.length ?? 0 }]
    : [];
  return {
    message: {
      message_id: updateId + 1,
      date: 1,
      from: { ...user, is_bot: false },
      chat: chat ?? { id: user.id, type: "private", first_name: user.first_name },
      text,
      entities: command,
    },
  };
}

/** A text message of `user` that replies to message `repliedTo`, in their private chat unless `chat` says otherwise. */
export function replyFrom(
  user: TelegramUser,
  repliedTo: number | string,
  text: string,
  chat?: { id: number; type: string },
) {
  const update = textFrom(user, text, chat);
  const where = update.message.chat;
  return {
    message: {
      ...update.message,
      reply_to_message: { message_id: Number(repliedTo), date: 1, chat: where, text: "card" },
    },
  };
}

/** A press of a button with `data` on message `messageId`. */
export function pressFrom(
  user: TelegramUser,
  messageId: number,
  data: string,
  chat?: { id: number; type: string },
) {
  return {
    callback_query: {
      id: `cb-${updateId + 1}`,
      from: { ...user, is_bot: false },
      chat_instance: "1",
      data,
      message: {
        message_id: messageId,
        date: 1,
        chat: chat ?? { id: user.id, type: "private" },
        text: "card",
      },
    },
  };
}

export async function telegramCalls(): Promise<TelegramCall[]> {
  return (await fetch(`http://${TELEGRAM_CONTROL_HOST}/calls`)).json();
}

/** The calls made for chat `chatId` (every method but getMe names its chat). */
export async function callsTo(chatId: number, method?: string): Promise<TelegramCall[]> {
  return (await telegramCalls()).filter(
    (call) => Number(call.body.chat_id) === chatId && (method === undefined || call.method === method),
  );
}

export async function failNext(method: string, chatId: number, statuses: number[]): Promise<void> {
  await fetch(
    `http://${TELEGRAM_CONTROL_HOST}/fail?method=${method}&chat=${chatId}&statuses=${statuses.join(",")}`,
  );
}

/** Links `user`'s Telegram account to `person` with a fresh code, as the inbox page does it. */
export async function link(person: Person, user: TelegramUser): Promise<void> {
  const minted = await person.api("POST", "/api/channels/link-codes", { body: { platform: "telegram" } });
  expect(minted.status).toBe(201);
  const { code } = (await minted.json()) as { code: string };
  expect((await sendUpdate(textFrom(user, `/start ${code}`))).status).toBe(200);
}

/** Runs the inbox's alarm until `chatId` has `count` calls of `method`. */
export async function sentTo(person: Person, chatId: number, method: string, count: number) {
  await expect
    .poll(async () => {
      await runDurableObjectAlarm(inboxObject(person.email));
      return (await callsTo(chatId, method)).length;
    })
    .toBeGreaterThanOrEqual(count);
  return callsTo(chatId, method);
}

/** The callback data of each button of a sent card, by label. */
export function buttonsOf(call: TelegramCall): Record<string, string> {
  const markup = call.body.reply_markup as
    | { inline_keyboard: { text: string; callback_data?: string }[][] }
    | undefined;
  const buttons = markup?.inline_keyboard.flat() ?? [];
  return Object.fromEntries(
    buttons.filter((b) => b.callback_data).map((b) => [b.text, b.callback_data as string]),
  );
}

/** The card message sent to `chatId` last (the one with buttons). */
export async function lastCard(chatId: number): Promise<TelegramCall> {
  const cards = (await callsTo(chatId, "sendMessage")).filter((call) => call.body.reply_markup);
  const last = cards.at(-1);
  if (!last) throw new Error(`no card was sent to ${chatId}`);
  return last;
}
