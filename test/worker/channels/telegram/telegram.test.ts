// Telegram end to end in the real runtime: an account linked with a one-time code gets each card of
// its person as a direct message with buttons, a signed button press answers the card as that
// person, and the message is edited to the receipt when the card resolves anywhere.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { runInDurableObject } from "../../../helpers/run-in-object";
import { deliverOutbox, inboxObject, Person } from "../../inbox/inbox-fixtures";
import { chatDelivery, firstAttemptFailed, openApproval } from "../chat-fixtures";
import {
  buttonsOf,
  callsTo,
  failNext,
  link,
  pressFrom,
  sendUpdate,
  sentTo,
  textFrom,
} from "./telegram-fixtures";

async function pending(person: Person) {
  return (await person.inbox()).cards.map((card) => card.interactionId);
}

// The first test of a file also loads the Worker and the Chat SDK into a fresh runtime.
describe("telegram", { timeout: 60_000 }, () => {
  it("links an account with a code sent in a direct message and lists it among the person's devices", async () => {
    const ana = new Person("ana.link@example.com");
    const user = { id: 5101, first_name: "Ana" };
    const minted = await ana.api("POST", "/api/channels/link-codes", { body: { platform: "telegram" } });
    expect(minted.status).toBe(201);
    const body = (await minted.json()) as { code: string; expiresAt: number; deepLink: string };
    expect(body.deepLink).toBe(`https://t.me/parley_test_bot?start=${body.code}`);
    expect((await sendUpdate(textFrom(user, `/link ${body.code}`))).status).toBe(200);
    expect((await callsTo(user.id, "sendMessage")).at(-1)?.body.text).toContain(
      `Linked to Parley as ${ana.email}`,
    );
    const links = (await (await ana.api("GET", "/api/channels/links")).json()) as { links: unknown[] };
    expect(links.links).toEqual([
      expect.objectContaining({ platform: "telegram", accountId: "5101", name: "Ana" }),
    ]);
    // The code is spent: sending it again from another account links nothing.
    await sendUpdate(textFrom({ id: 5102, first_name: "Eve" }, `/link ${body.code}`));
    expect((await callsTo(5102, "sendMessage")).at(-1)?.body.text).toContain("unknown, used or expired");
    expect(
      ((await (await ana.api("GET", "/api/channels/links")).json()) as { links: unknown[] }).links,
    ).toHaveLength(1);
  });

  it("sends an approval with buttons, approves it on a signed press as the person, and edits the message to the receipt", async () => {
    const ana = new Person("ana.approve@example.com");
    const user = { id: 5201, first_name: "Ana" };
    await link(ana, user);
    const session = await openApproval(ana, "toolu_tg_approve");
    const [sent] = await sentTo(ana, user.id, "sendMessage", 2);
    const card = (await callsTo(user.id, "sendMessage")).find((call) => call.body.reply_markup);
    expect(sent).toBeDefined();
    expect(card?.body.text).toContain("ship it");
    const buttons = buttonsOf(card!);
    expect(Object.keys(buttons)).toEqual(expect.arrayContaining(["Approve", "Deny"]));
    // Ids only: the button data names no part of the card.
    expect(buttons.Approve).not.toContain("ship it");
    expect(new TextEncoder().encode(buttons.Approve).byteLength).toBeLessThanOrEqual(64);

    const messageId = 1; // any: the button's data says which card
    expect((await sendUpdate(pressFrom(user, messageId, buttons.Approve!))).status).toBe(200);
    await deliverOutbox(session);
    expect(await pending(ana)).not.toContain("toolu_tg_approve");
    const [edit] = await sentTo(ana, user.id, "editMessageText", 1);
    expect(edit?.body.text).toBe("Approved by Ana · Telegram");
    expect(edit?.body.reply_markup).toEqual({ inline_keyboard: [] });
    // The session saw the account itself, not the person's owner rights under another name: the
    // decision record names it and knows the answer came from a chat.
    const record = (await (await ana.api("GET", "/api/decisions")).json()) as {
      decisions: { interactionId: string; decidedBy: unknown }[];
    };
    expect(record.decisions.find((d) => d.interactionId === "toolu_tg_approve")?.decidedBy).toEqual({
      kind: "chat",
      label: "Ana · Telegram",
      id: `telegram:${user.id}`,
      device: "chat",
      personId: ana.email,
    });
  });

  it("changes nothing for a wrong secret token, an unlinked account or a group chat, and says why", async () => {
    const bo = new Person("bo.refuse@example.com");
    const user = { id: 5301, first_name: "Bo" };
    await link(bo, user);
    await openApproval(bo, "toolu_tg_refuse");
    await sentTo(bo, user.id, "sendMessage", 2);
    const card = (await callsTo(user.id, "sendMessage")).find((call) => call.body.reply_markup);
    const approve = buttonsOf(card!).Approve!;

    const forged = await sendUpdate(pressFrom(user, 1, approve), "wrong-secret-token-0000000000");
    expect(forged.status).toBe(401);
    const stranger = { id: 5302, first_name: "Mallory" };
    await sendUpdate(pressFrom(stranger, 1, approve));
    expect((await callsTo(stranger.id, "sendMessage")).at(-1)?.body.text).toContain("not linked");
    const group = { id: -5303, type: "group" };
    await sendUpdate(pressFrom(user, 1, approve, group));
    expect((await callsTo(group.id, "sendMessage")).at(-1)?.body.text).toContain("direct message");
    expect(await pending(bo)).toContain("toolu_tg_refuse");
  });

  it("retries a message the Bot API refused with a 500 and sends it exactly once", async () => {
    const cy = new Person("cy.retry@example.com");
    const user = { id: 5401, first_name: "Cy" };
    await link(cy, user);
    await failNext("sendMessage", user.id, [500]);
    await openApproval(cy, "toolu_tg_retry");
    await runDurableObjectAlarm(inboxObject(cy.email));
    const row = await firstAttemptFailed(cy, "telegram");
    expect(row?.nextAt).toBeGreaterThan(Date.now());
    // The retry's time comes (the row is moved to it, no waiting), and the alarm sends it.
    await runInDurableObject(inboxObject(cy.email), (_, state) => {
      state.storage.sql.exec(`UPDATE chat_deliveries SET next_at = 0 WHERE status = 'pending'`);
    });
    await runDurableObjectAlarm(inboxObject(cy.email));
    expect(await chatDelivery(cy, "telegram")).toMatchObject({ status: "delivered", attempts: 2 });
    const cards = (await callsTo(user.id, "sendMessage")).filter(
      (call) => call.body.reply_markup && call.status === 200,
    );
    expect(cards).toHaveLength(1);
  });

  it("edits the message when the card is answered in the browser, and a later press gets the winner's receipt", async () => {
    const di = new Person("di.browser@example.com");
    const user = { id: 5501, first_name: "Di" };
    await link(di, user);
    const session = await openApproval(di, "toolu_tg_browser");
    await sentTo(di, user.id, "sendMessage", 2);
    const card = (await callsTo(user.id, "sendMessage")).find((call) => call.body.reply_markup);
    const answered = await di.api("POST", `/api/inbox/cards/${session.sessionId}/toolu_tg_browser/respond`, {
      body: { response: { decision: "deny" } },
    });
    expect(answered.status).toBe(200);
    await deliverOutbox(session);
    const [edit] = await sentTo(di, user.id, "editMessageText", 1);
    expect(edit?.body.text).toBe(`Denied by ${di.email}`);
    expect(edit?.body.reply_markup).toEqual({ inline_keyboard: [] });

    await sendUpdate(pressFrom(user, 1, buttonsOf(card!).Approve!));
    expect((await callsTo(user.id, "sendMessage")).at(-1)?.body.text).toBe(
      `Already decided: Denied by ${di.email}.`,
    );
  });
});
