// Replies in Telegram: a linked account's reply to one of its cards' messages (the card or its
// receipt) reaches that card's session as a message from the account; any other reply, from any
// other account or chat, is refused and the session hears nothing.
import { describe, expect, it } from "vitest";
import { MAX_MESSAGE_CHARS } from "../../../../src/protocol/limits";
import { deliverOutbox, Person } from "../../inbox/inbox-fixtures";
import { openApproval } from "../chat-fixtures";
import { userMessages } from "../reply-fixtures";
import {
  buttonsOf,
  callsTo,
  lastCard,
  link,
  pressFrom,
  replyFrom,
  sendUpdate,
  sentTo,
  textFrom,
} from "./telegram-fixtures";

/** The Bot API's id of the card message sent to `chatId` last. */
async function cardMessageId(chatId: number): Promise<number> {
  return ((await lastCard(chatId)).result as { message_id: number }).message_id;
}

/** What the bot said last in chat `chatId`. */
async function lastSaid(chatId: number): Promise<unknown> {
  return (await callsTo(chatId, "sendMessage")).at(-1)?.body.text;
}

describe("telegram replies", { timeout: 60_000 }, () => {
  it("A Telegram reply to a card's message reaches its session as the linked account's message, and so does a reply to its receipt", async () => {
    const ana = new Person("ana.tg-reply@example.com");
    const user = { id: 6601, first_name: "Ana" };
    await link(ana, user);
    const session = await openApproval(ana, "toolu_tg_reply");
    await sentTo(ana, user.id, "sendMessage", 2);
    const card = await cardMessageId(user.id);
    const title = (await ana.inbox()).sessions.find((s) => s.sessionId === session.sessionId)?.title;
    expect(title).toBeTruthy();

    expect((await sendUpdate(replyFrom(user, card, "Use the staging database"))).status).toBe(200);
    expect(await userMessages(ana, session)).toContainEqual(
      expect.objectContaining({
        text: "Use the staging database",
        by: "Ana · Telegram",
        deviceId: `chat-telegram-${user.id}`,
      }),
    );
    expect(await lastSaid(user.id)).toBe(`Sent to ${title}.`);

    // The card answered, its message is edited to the receipt: a reply to it still reaches the session.
    await sendUpdate(pressFrom(user, card, buttonsOf(await lastCard(user.id)).Approve!));
    await deliverOutbox(session);
    await sentTo(ana, user.id, "editMessageText", 1);
    await sendUpdate(replyFrom(user, card, "And note it in the log"));
    const texts = (await userMessages(ana, session)).map((message) => message.text);
    expect(texts).toEqual(["write the plan down", "Use the staging database", "And note it in the log"]);
  });

  it("refuses a reply from an unlinked account, from another linked account, in a group, to an unknown message, empty or over the cap, and the session hears nothing", async () => {
    const bo = new Person("bo.tg-reply-refused@example.com");
    const user = { id: 6611, first_name: "Bo" };
    await link(bo, user);
    const session = await openApproval(bo, "toolu_tg_reply_refuse");
    await sentTo(bo, user.id, "sendMessage", 2);
    const card = await cardMessageId(user.id);
    const before = await userMessages(bo, session);

    const stranger = { id: 6612, first_name: "Mallory" };
    await sendUpdate(replyFrom(stranger, card, "from a stranger"));
    expect(await lastSaid(stranger.id)).toContain("not linked");

    // Another person's linked account, writing as if from Bo's chat: the card was never sent to it.
    const eve = { id: 6613, first_name: "Eve" };
    await link(new Person("eve.tg-reply-refused@example.com"), eve);
    await sendUpdate(replyFrom(eve, card, "from another account", { id: user.id, type: "private" }));
    await sendUpdate(replyFrom(eve, card, "from another account's own chat"));
    expect(await lastSaid(eve.id)).toContain("not one of your Parley cards");

    const group = { id: -6614, type: "group" };
    await sendUpdate(replyFrom(user, card, "in a group", group));
    expect(await callsTo(group.id, "sendMessage")).toEqual([]);

    const linked = (await callsTo(user.id, "sendMessage"))[0]?.result as { message_id: number };
    await sendUpdate(replyFrom(user, linked.message_id, "to the link's confirmation"));
    expect(await lastSaid(user.id)).toContain("not one of your Parley cards");

    await sendUpdate(replyFrom(user, card, "x".repeat(MAX_MESSAGE_CHARS + 1)));
    expect(await lastSaid(user.id)).toBe(
      `Not sent: a message to a session is at most ${MAX_MESSAGE_CHARS} characters.`,
    );

    await sendUpdate(replyFrom(user, card, "   "));
    expect(await lastSaid(user.id)).toBe("Not sent: only text can be sent to a session.");

    await sendUpdate(textFrom(user, "hello, not a reply"));
    expect(await lastSaid(user.id)).toContain(
      "To send a card's session a message, reply to the card's message.",
    );

    const forged = await sendUpdate(replyFrom(user, card, "forged"), "wrong-secret-token-0000000000");
    expect(forged.status).toBe(401);
    expect(await userMessages(bo, session)).toEqual(before);
  });
});
