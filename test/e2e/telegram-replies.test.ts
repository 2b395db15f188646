// Telegram replies against a real `wrangler dev`: an account linked with a code gets a card, and its
// reply to the card's message, signed as Telegram signs a webhook call (the secret token header),
// reaches the card's session as that account's message.
import { describe, expect, inject, it } from "vitest";
import { TELEGRAM_BINDINGS, type TelegramCall } from "../helpers/telegram-api";
import { hasChromium } from "./browser-env";
import { asPerson, baseUrl, postMessage, say, scriptedSession } from "./harness";

const USER = { id: 7_700_101, first_name: "Ana", is_bot: false };
const CHAT = { id: USER.id, type: "private" };
let updateId = 8_810_000;

async function sendUpdate(update: Record<string, unknown>): Promise<number> {
  updateId += 1;
  const response = await fetch(`${baseUrl()}/api/channels/telegram`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-telegram-bot-api-secret-token": TELEGRAM_BINDINGS.TELEGRAM_WEBHOOK_SECRET_TOKEN,
    },
    body: JSON.stringify({ update_id: updateId, ...update }),
  });
  return response.status;
}

async function sentToUser(): Promise<TelegramCall[]> {
  const calls = (await (await fetch(`${inject("telegramApiUrl")}/control/calls`)).json()) as TelegramCall[];
  return calls.filter((call) => call.method === "sendMessage" && Number(call.body.chat_id) === USER.id);
}

type SessionEvent = { type: string; data: { text?: string; by?: string } };

describe.skipIf(!hasChromium)("Telegram replies", () => {
  it("A Telegram reply to a card's message reaches its session.", { timeout: 60_000 }, async () => {
    const minted = await fetch(`${baseUrl()}/api/channels/link-codes`, {
      method: "POST",
      headers: { ...asPerson(), "content-type": "application/json" },
      body: JSON.stringify({ platform: "telegram" }),
    });
    expect(minted.status).toBe(201);
    const { code } = (await minted.json()) as { code: string };
    const link = { message_id: 1, date: 1, from: USER, chat: CHAT, text: `/link ${code}` };
    expect(
      await sendUpdate({ message: { ...link, entities: [{ type: "bot_command", offset: 0, length: 5 }] } }),
    ).toBe(200);

    const session = await scriptedSession([
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_e2e_tg_reply",
            name: "notes_write",
            input: { key: "k", text: "replied to in chat" },
          },
        ],
      },
      say("Saved."),
    ]);
    await postMessage(session, "Write it down");
    // The page's person is shared with the other chat tests, whose cards reach this account too.
    const card = async () =>
      (await sentToUser()).find(
        (call) => call.body.reply_markup && String(call.body.text).includes("replied to in chat"),
      );
    await expect.poll(async () => (await card()) !== undefined).toBe(true);
    const cardId = ((await card())?.result as { message_id: number } | undefined)?.message_id;
    expect(cardId).toBeTypeOf("number");

    const reply = {
      message_id: 2,
      date: 1,
      from: USER,
      chat: CHAT,
      text: "Put it under notes/today",
      reply_to_message: { message_id: cardId, date: 1, chat: CHAT, text: "card" },
    };
    const sentBefore = (await sentToUser()).length;
    expect(await sendUpdate({ message: reply })).toBe(200);

    const events = await fetch(`${baseUrl()}/api/sessions/${session.sessionId}/events?after=0`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(events.status).toBe(200);
    const heard = ((await events.json()) as { events: SessionEvent[] }).events.filter(
      (event) => event.type === "user_message",
    );
    expect(heard.map((event) => event.data.text)).toEqual(["Write it down", "Put it under notes/today"]);
    expect(heard[1]?.data.by).toBe("Ana · Telegram");
    // What the chat got back: cards other files opened meanwhile carry buttons; the receipt does not.
    const answers = (await sentToUser()).slice(sentBefore).filter((call) => !call.body.reply_markup);
    expect(answers.map((call) => call.body.text)).toEqual(["Sent to Write it down."]);
  });
});
