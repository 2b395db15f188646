// Discord in the real runtime: an account linked with `/parley link <code>` in a direct message gets
// each card of its person there as a message with buttons, a signed press answers the card as that
// person, the message is edited to the receipt when the card resolves anywhere, and a forged,
// foreign or unlinked interaction changes nothing.
import { runDurableObjectAlarm } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runInDurableObject } from "../../../helpers/run-in-object";
import { ORIGIN } from "../../../helpers/session-harness";
import { deliverOutbox, inboxObject, Person } from "../../inbox/inbox-fixtures";
import { chatDelivery, firstAttemptFailed, openApproval } from "../chat-fixtures";
import {
  answerOf,
  buttonsOf,
  callsTo,
  commandFrom,
  dmOf,
  failNext,
  link,
  messageIdOf,
  pressFrom,
  RECEIPT_COMPONENTS,
  sendInteraction,
  sentTo,
  signed,
} from "./discord-fixtures";

const EPHEMERAL = 64;
const DEFERRED_UPDATE = 6;

async function pending(person: Person) {
  return (await person.inbox()).cards.map((card) => card.interactionId);
}

async function links(person: Person) {
  return ((await (await person.api("GET", "/api/channels/links")).json()) as { links: unknown[] }).links;
}

// The first test of a file also loads the Worker into a fresh runtime.
describe("discord", { timeout: 60_000 }, () => {
  it("answers Discord's ping with a pong, and refuses an interaction whose signature is not the application's or is ten minutes old", async () => {
    expect(await answerOf(await sendInteraction({ type: 1 }))).toEqual({ type: 1 });
    // Signed, but another body: the signature covers the timestamp and every byte of the body.
    const forged = await sendInteraction({ type: 1 }, await signed(JSON.stringify({ type: 1, id: "2" })));
    expect(forged.status).toBe(401);
    expect((await sendInteraction({ type: 1 }, {})).status).toBe(401);
    // Signed by the application, but ten minutes ago: a replay.
    const replayed = JSON.stringify({ type: 1, id: "3", token: "t" });
    const stale = await exports.default.fetch(`${ORIGIN}/api/channels/discord`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(await signed(replayed, Date.now() - 600_000)) },
      body: replayed,
    });
    expect(stale.status).toBe(401);
    // Signed, but not an interaction Parley reads.
    const body = JSON.stringify({ kind: "ping" });
    const unreadable = await exports.default.fetch(`${ORIGIN}/api/channels/discord`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(await signed(body)) },
      body,
    });
    expect(unreadable.status).toBe(400);
  });

  it("links an account with /parley link in a direct message, and refuses the code in a server or a second time", async () => {
    const ana = new Person("ana.discord.link@example.com");
    const user = { id: "810000000000000001", username: "ana", global_name: "Ana" };
    const minted = await ana.api("POST", "/api/channels/link-codes", { body: { platform: "discord" } });
    expect(minted.status).toBe(201);
    const { code, deepLink } = (await minted.json()) as { code: string; deepLink?: string };
    expect(deepLink).toBeUndefined();

    const inServer = await answerOf(
      await sendInteraction(commandFrom(user, code, { guildId: "42", channelId: "43" })),
    );
    expect(inServer.data).toMatchObject({
      flags: EPHEMERAL,
      content: expect.stringContaining("direct message"),
    });
    expect(await links(ana)).toEqual([]);

    const linked = await answerOf(await sendInteraction(commandFrom(user, code)));
    expect(linked.type).toBe(4);
    expect(linked.data?.content).toContain(`Linked to Parley as ${ana.email}`);
    expect(await links(ana)).toEqual([
      expect.objectContaining({ platform: "discord", accountId: user.id, name: "Ana" }),
    ]);
    const again = await answerOf(
      await sendInteraction(commandFrom({ id: "810000000000000002", username: "eve" }, code)),
    );
    expect(again.data).toMatchObject({
      flags: EPHEMERAL,
      content: expect.stringContaining("unknown, used or expired"),
    });
    expect(await links(ana)).toHaveLength(1);
  });

  it("posts an approval to the account's direct message with buttons, approves it on a signed press and edits the message to the receipt", async () => {
    const ana = new Person("ana.discord.approve@example.com");
    const user = { id: "820000000000000001", username: "ana", global_name: "Ana" };
    await link(ana, user);
    const session = await openApproval(ana, "toolu_dc_approve");
    const [card] = await sentTo(ana, dmOf(user), "post", 1);
    expect(card?.authorization).toBe("Bot test-discord-bot-token");
    expect(card?.body.content).toContain("ship it");
    expect(card?.body.allowed_mentions).toEqual({ parse: [] });
    expect(card?.body).toMatchObject({ enforce_nonce: true, nonce: expect.stringMatching(/^[\w-]{25}$/) });
    const buttons = buttonsOf(card!);
    expect(Object.keys(buttons)).toEqual(expect.arrayContaining(["Approve", "Deny"]));
    // Ids only: the custom_id names no part of the card.
    expect(buttons.Approve).toMatch(/^\d+\.[a-z0-9]+$/);
    expect(buttons.Approve!.length).toBeLessThanOrEqual(100);

    const pressed = await answerOf(await sendInteraction(pressFrom(user, buttons.Approve!)));
    expect(pressed).toEqual({ type: DEFERRED_UPDATE });
    await deliverOutbox(session);
    expect(await pending(ana)).not.toContain("toolu_dc_approve");
    const [edit] = await sentTo(ana, dmOf(user), "edit", 1);
    expect(edit?.path).toBe(`/channels/${dmOf(user)}/messages/${await messageIdOf(ana, "toolu_dc_approve")}`);
    expect(edit?.body).toMatchObject({
      content: "Approved by Ana · Discord",
      components: RECEIPT_COMPONENTS,
    });
    const record = (await (await ana.api("GET", "/api/decisions")).json()) as {
      decisions: { interactionId: string; decidedBy: unknown }[];
    };
    expect(record.decisions.find((d) => d.interactionId === "toolu_dc_approve")?.decidedBy).toEqual({
      kind: "chat",
      label: "Ana · Discord",
      id: `discord:${user.id}`,
      device: "chat",
      personId: ana.email,
    });
  });

  it("changes nothing for an unlinked account, a press in a server channel or a forged signature, and says why to the presser alone", async () => {
    const bo = new Person("bo.discord.refuse@example.com");
    const user = { id: "830000000000000001", username: "bo" };
    await link(bo, user);
    await openApproval(bo, "toolu_dc_refuse");
    const [card] = await sentTo(bo, dmOf(user), "post", 1);
    const approve = buttonsOf(card!).Approve!;

    const stranger = await answerOf(
      await sendInteraction(pressFrom({ id: "830000000000000002", username: "mallory" }, approve)),
    );
    expect(stranger).toMatchObject({
      type: 4,
      data: { flags: EPHEMERAL, content: expect.stringContaining("not linked") },
    });
    const inServer = await answerOf(
      await sendInteraction(pressFrom(user, approve, { guildId: "44", channelId: "45" })),
    );
    expect(inServer.data).toMatchObject({
      flags: EPHEMERAL,
      content: expect.stringContaining("direct message"),
    });
    // A direct message, but between the presser and someone else (a user-installed app's context).
    const otherDm = { ...pressFrom(user, approve), context: 2 };
    const elsewhere = await answerOf(await sendInteraction(otherDm));
    expect(elsewhere.data).toMatchObject({
      flags: EPHEMERAL,
      content: expect.stringContaining("direct message"),
    });
    const interaction = pressFrom(user, approve);
    const forged = await sendInteraction(
      interaction,
      await signed(JSON.stringify({ ...interaction, id: "x" })),
    );
    expect(forged.status).toBe(401);
    expect(await pending(bo)).toContain("toolu_dc_refuse");
  });

  it("retries a message Discord refused with a 500 and posts it exactly once", async () => {
    const cy = new Person("cy.discord.retry@example.com");
    const user = { id: "840000000000000001", username: "cy" };
    await link(cy, user);
    await failNext(dmOf(user), [500]);
    await openApproval(cy, "toolu_dc_retry");
    await runDurableObjectAlarm(inboxObject(cy.email));
    const row = await firstAttemptFailed(cy, "discord");
    expect(row?.nextAt).toBeGreaterThan(Date.now());
    await dueNow(cy);
    await runDurableObjectAlarm(inboxObject(cy.email));
    expect(await discordRow(cy)).toMatchObject({ status: "delivered", attempts: 2 });
    expect((await callsTo(dmOf(user), "post")).filter((call) => call.status === 200)).toHaveLength(1);
  });

  it("never posts twice when Discord made the message but its answer was lost: the retry carries the same nonce", async () => {
    const dee = new Person("dee.discord.lost@example.com");
    const user = { id: "850000000000000001", username: "dee" };
    await link(dee, user);
    await failNext(dmOf(user), [502], true);
    await openApproval(dee, "toolu_dc_lost");
    await runDurableObjectAlarm(inboxObject(dee.email));
    await firstAttemptFailed(dee, "discord");
    await dueNow(dee);
    await runDurableObjectAlarm(inboxObject(dee.email));
    expect(await discordRow(dee)).toMatchObject({ status: "delivered", attempts: 2 });
    const posts = await callsTo(dmOf(user), "post");
    expect(posts).toHaveLength(2);
    expect(posts[1]?.body.nonce).toBe(posts[0]?.body.nonce);
    // The stand-in made one message, and the delivery holds its id.
    expect(await messageIdOf(dee, "toolu_dc_lost")).toMatch(/^\d+$/);
  });

  it("edits the message when the card is answered in the browser, and a later press gets the winner's receipt", async () => {
    const di = new Person("di.discord.browser@example.com");
    const user = { id: "860000000000000001", username: "di" };
    await link(di, user);
    const session = await openApproval(di, "toolu_dc_browser");
    const [card] = await sentTo(di, dmOf(user), "post", 1);
    const answered = await di.api("POST", `/api/inbox/cards/${session.sessionId}/toolu_dc_browser/respond`, {
      body: { response: { decision: "deny" } },
    });
    expect(answered.status).toBe(200);
    await deliverOutbox(session);
    const [edit] = await sentTo(di, dmOf(user), "edit", 1);
    expect(edit?.body).toMatchObject({ content: `Denied by ${di.email}`, components: RECEIPT_COMPONENTS });

    const late = await answerOf(await sendInteraction(pressFrom(user, buttonsOf(card!).Approve!)));
    expect(late).toMatchObject({
      type: 4,
      data: { flags: EPHEMERAL, content: `Already decided: Denied by ${di.email}.` },
    });
  });
});

function discordRow(person: Person) {
  return chatDelivery(person, "discord");
}

/** The retry's time comes: the row is moved to it, no waiting. */
async function dueNow(person: Person) {
  await runInDurableObject(inboxObject(person.email), (_, state) => {
    state.storage.sql.exec(`UPDATE chat_deliveries SET next_at = 0 WHERE status = 'pending'`);
  });
}
