// Telegram from the inbox page on a phone: Link Telegram shows a code, the bot gets it in a direct
// message, the account is listed; a card then arrives in the chat, a signed press approves it, the
// page shows who approved it from where, and the chat message is edited to the receipt; a long card
// opens once through See all, and a reason replied to a forced reply denies it.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { TELEGRAM_BINDINGS, type TelegramCall } from "../helpers/telegram-api";
import { expectNoViolations } from "./axe-audit";
import { hasChromium } from "./browser-env";
import { asPerson, baseUrl, launchBrowser, postMessage, say, screenshot, scriptedSession } from "./harness";

const USER = { id: 7_700_001, first_name: "Ana", is_bot: false };
let updateId = 8_800_000;

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

async function callsTo(method: string): Promise<TelegramCall[]> {
  const calls = (await (await fetch(`${inject("telegramApiUrl")}/control/calls`)).json()) as TelegramCall[];
  return calls.filter((call) => call.method === method && Number(call.body.chat_id) === USER.id);
}

/**
 * This test's card, as sent to the account: the page's person (`local` on loopback) is shared with
 * the other chat tests, whose cards reach every account they linked.
 */
async function cardsSent(): Promise<TelegramCall[]> {
  return (await callsTo("sendMessage")).filter(
    (call) => call.body.reply_markup && String(call.body.text).includes("from chat"),
  );
}

describe.skipIf(!hasChromium)("Telegram from the inbox page", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("links an account on a phone, and a press in Telegram approves a card the page then shows as approved from Telegram", async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const phone = await context.newPage();
    phone.on("pageerror", (error) => console.error("[phone] page error:", error));
    await phone.goto(`${baseUrl()}/#/inbox`);
    await phone.getByRole("button", { name: "Link Telegram" }).click();
    const command = (await phone.locator(".chat-link-command").textContent()) ?? "";
    expect(command).toMatch(/^\/link [A-Z2-9]{8}$/);
    expect(await phone.getByRole("link", { name: "Open Telegram" }).getAttribute("href")).toBe(
      `https://t.me/parley_test_bot?start=${command.slice("/link ".length)}`,
    );
    await expectNoViolations(phone, "inbox with a Telegram link code");

    const text = `/start ${command.slice("/link ".length)}`;
    const message = { message_id: 1, date: 1, from: USER, chat: { id: USER.id, type: "private" }, text };
    expect(
      await sendUpdate({
        message: { ...message, entities: [{ type: "bot_command", offset: 0, length: 6 }] },
      }),
    ).toBe(200);
    await phone.locator(".chat-link", { hasText: `Telegram: Ana (id ${USER.id})` }).waitFor();
    await screenshot(phone, "inbox-telegram-linked");
    await expectNoViolations(phone, "inbox with a linked Telegram account");

    const session = await scriptedSession([
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_e2e_tg",
            name: "notes_write",
            input: { key: "k", text: "from chat" },
          },
        ],
      },
      say("Saved."),
    ]);
    await postMessage(session, "Write it down");
    const card = phone.locator(`.inbox-group[data-session-id="${session.sessionId}"] .approval-card`);
    await card.waitFor();
    await expect.poll(async () => (await cardsSent()).length).toBe(1);
    const [sent] = await cardsSent();
    const markup = sent?.body.reply_markup as {
      inline_keyboard: { text: string; callback_data?: string }[][];
    };
    const approve = markup.inline_keyboard.flat().find((button) => button.text === "Approve")?.callback_data;
    const press = {
      id: "cb-e2e",
      from: USER,
      chat_instance: "1",
      data: approve,
      message: { message_id: 1, date: 1, chat: { id: USER.id, type: "private" }, text: "card" },
    };
    expect(await sendUpdate({ callback_query: press })).toBe(200);

    const receipt = phone.locator(
      `.inbox-group[data-session-id="${session.sessionId}"] .receipt[data-outcome=approved]`,
    );
    await receipt.waitFor();
    expect(await receipt.textContent()).toMatch(/^Approved by Ana · Telegram/);
    await expect
      .poll(async () => (await callsTo("editMessageText")).map((c) => c.body.text))
      .toContain("Approved by Ana · Telegram");
    await context.close();
  });

  it("offers a long card only through See all, opens it once on a phone, and denies it there", {
    timeout: 60_000,
  }, async () => {
    const user = { id: 7_700_002, first_name: "Bo", is_bot: false };
    const chat = { id: user.id, type: "private" };
    const minted = await fetch(`${baseUrl()}/api/channels/link-codes`, {
      method: "POST",
      headers: { ...asPerson(), "content-type": "application/json" },
      body: JSON.stringify({ platform: "telegram" }),
    });
    const { code } = (await minted.json()) as { code: string };
    const link = { message_id: 1, date: 1, from: user, chat, text: `/link ${code}` };
    await sendUpdate({ message: { ...link, entities: [{ type: "bot_command", offset: 0, length: 5 }] } });

    const session = await scriptedSession([
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_e2e_tg_long",
            name: "notes_write",
            input: { key: "essay", text: "a long note ".repeat(120) },
          },
        ],
      },
      say("Not saved."),
    ]);
    await postMessage(session, "Write the essay down");
    const sentTo = async (method: string) =>
      ((await (await fetch(`${inject("telegramApiUrl")}/control/calls`)).json()) as TelegramCall[]).filter(
        (call) => call.method === method && Number(call.body.chat_id) === user.id,
      );
    type Keyboard = { inline_keyboard: { text: string; callback_data?: string; url?: string }[][] };
    const buttonOf = (call: TelegramCall | undefined, text: string) =>
      (call?.body.reply_markup as Keyboard | undefined)?.inline_keyboard.flat().find((b) => b.text === text);
    await expect
      .poll(async () => (await sentTo("sendMessage")).filter((c) => buttonOf(c, "See all")).length)
      .toBe(1);
    const card = (await sentTo("sendMessage")).find((c) => buttonOf(c, "See all"));
    // Too long to show whole: the message answers nothing, and its one button is See all.
    const keyboard = (card?.body.reply_markup ?? { inline_keyboard: [] }) as Keyboard;
    expect(keyboard.inline_keyboard.flat().map((b) => b.text)).toEqual(["See all"]);
    const press = (data: string | undefined, id: string) =>
      sendUpdate({
        callback_query: {
          id,
          from: user,
          chat_instance: "1",
          data,
          message: { message_id: 1, date: 1, chat, text: "card" },
        },
      });
    expect(await press(buttonOf(card, "See all")?.callback_data, "cb-e2e-see")).toBe(200);
    // Another file's bot messages may come after it on the shared stand-in: the one with the link.
    const seeAll = async () =>
      (await sentTo("sendMessage")).findLast((sent) => buttonOf(sent, "See all in Parley"));
    await expect.poll(seeAll).toBeDefined();
    const url = buttonOf(await seeAll(), "See all in Parley")?.url as string;
    expect(url).toContain("/api/channels/see/");

    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const phone = await context.newPage();
    await phone.goto(url);
    await phone.getByRole("button", { name: "Approve", exact: true }).waitFor();
    await phone.getByText("a long note a long note").first().waitFor();
    await screenshot(phone, "telegram-see-all");
    // Spent: the same link opens nothing a second time.
    expect((await fetch(url, { redirect: "manual" })).status).toBe(404);

    // Answered where it is seen whole; the message in Telegram takes the receipt. Bo's chat also
    // gets the cards other files open in the same inbox at the same time: only edits of this card's
    // message count.
    const messageId = (card?.result as { message_id: number } | undefined)?.message_id;
    expect(messageId).toEqual(expect.any(Number));
    await phone.getByRole("button", { name: "Deny", exact: true }).click();
    await expect
      .poll(async () =>
        (await sentTo("editMessageText"))
          .filter((c) => Number(c.body.message_id) === messageId)
          .map((c) => String(c.body.text)),
      )
      .toEqual([expect.stringMatching(/^Denied/)]);
    await context.close();
  });
});
