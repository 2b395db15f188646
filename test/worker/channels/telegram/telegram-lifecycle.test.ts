// The Telegram account over time: a question answered with its option buttons, the same update
// delivered twice, a restart of every object between the message and the press, and unlinking.
import { evictDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { MintedInboxLink } from "../../../../src/protocol";
import { runInDurableObject } from "../../../helpers/run-in-object";
import { ORIGIN, textReply } from "../../../helpers/session-harness";
import { stubOf } from "../../../helpers/session-object-probe";
import { ask, deliverOutbox, inboxObject, Person } from "../../inbox/inbox-fixtures";
import { channelObject, openApproval } from "../chat-fixtures";
import { buttonsOf, callsTo, lastCard, link, pressFrom, sendUpdate, sentTo } from "./telegram-fixtures";

const QUESTION = "Which database should the service use?";

// The first test of a file also loads the Worker and the Chat SDK into a fresh runtime.
describe("telegram over time", { timeout: 60_000 }, () => {
  it("answers a question with the option pressed, once, however often Telegram repeats the update", async () => {
    const ed = new Person("ed.question@example.com");
    const user = { id: 6101, first_name: "Ed" };
    await link(ed, user);
    const session = await ed.createSession({ script: [ask("toolu_tg_question"), textReply("Thanks.")] });
    const device = await ed.connect(session);
    await device.request({ type: "send_message", text: "Pick one" });
    await device.waitForEvent("question_prompt");
    await deliverOutbox(session);
    await sentTo(ed, user.id, "sendMessage", 2);
    const buttons = buttonsOf(await lastCard(user.id));
    expect(Object.keys(buttons)).toEqual(["Postgres", "SQLite", "Other…", "More time"]);

    const press = pressFrom(user, 1, buttons.SQLite as string);
    const update = { update_id: 9_900_000 + user.id, ...press };
    const body = JSON.stringify(update);
    const headers = {
      "content-type": "application/json",
      "x-telegram-bot-api-secret-token": "test-telegram-secret-token-0123",
    };
    for (let i = 0; i < 2; i += 1) {
      const answered = await exports.default.fetch(`${ORIGIN}/api/channels/telegram`, {
        method: "POST",
        headers,
        body,
      });
      expect(answered.status).toBe(200);
    }
    const resolved = await device.waitForEvent("interaction_resolved");
    expect(resolved.data).toMatchObject({ answeredBy: "Ed · Telegram", resolvedBy: "chat-telegram-6101" });
    expect(resolved.data.response).toMatchObject({ answers: { [QUESTION]: "SQLite" } });
    // The repeat was dropped before it reached the card: no "already decided" message either.
    expect((await callsTo(user.id, "sendMessage")).filter((c) => !c.body.reply_markup)).toHaveLength(1);
    device.close();
  });

  it("still answers a press after the channel, inbox and session objects all restarted", async () => {
    const fay = new Person("fay.restart@example.com");
    const user = { id: 6201, first_name: "Fay" };
    await link(fay, user);
    const session = await openApproval(fay, "toolu_tg_restart");
    await sentTo(fay, user.id, "sendMessage", 2);
    const approve = buttonsOf(await lastCard(user.id)).Approve as string;
    await evictDurableObject(inboxObject(fay.email));
    await evictDurableObject(stubOf(session));
    // The channel object serves every test's webhooks, so it may be busy: it is reset, as a crash would.
    const before = await runInDurableObject(channelObject(), (instance) => instance);
    await runInDurableObject(channelObject(), (_, state) => state.abort("restart")).catch(() => {});
    expect(await runInDurableObject(channelObject(), (instance) => instance)).not.toBe(before);
    expect((await sendUpdate(pressFrom(user, 1, approve))).status).toBe(200);
    await deliverOutbox(session);
    expect((await fay.inbox()).cards).toEqual([]);
    const [edit] = await sentTo(fay, user.id, "editMessageText", 1);
    expect(edit?.body.text).toBe("Approved by Fay · Telegram");
  });

  it("stops sending cards to an unlinked account and refuses its presses", async () => {
    const gus = new Person("gus.unlink@example.com");
    const user = { id: 6301, first_name: "Gus" };
    await link(gus, user);
    await openApproval(gus, "toolu_tg_before_unlink");
    await sentTo(gus, user.id, "sendMessage", 2);
    const approve = buttonsOf(await lastCard(user.id)).Approve as string;
    const { links } = (await (await gus.api("GET", "/api/channels/links")).json()) as {
      links: { linkId: string }[];
    };
    expect((await gus.api("DELETE", `/api/channels/links/${links[0]?.linkId}`)).status).toBe(200);
    expect((await gus.api("DELETE", `/api/channels/links/${links[0]?.linkId}`)).status).toBe(404);

    await sendUpdate(pressFrom(user, 1, approve));
    expect((await callsTo(user.id, "sendMessage")).at(-1)?.body.text).toContain("not linked");
    expect((await gus.inbox()).cards.map((c) => c.interactionId)).toEqual(["toolu_tg_before_unlink"]);
    await openApproval(gus, "toolu_tg_after_unlink");
    const before = (await callsTo(user.id, "sendMessage")).length;
    await sentTo(gus, user.id, "sendMessage", before);
    expect(await callsTo(user.id, "sendMessage")).toHaveLength(before);
  });

  it("refuses a press from another person's linked account: a button only answers for its own account", async () => {
    const hal = new Person("hal.owner@example.com");
    const ivy = new Person("ivy.other@example.com");
    const halUser = { id: 6401, first_name: "Hal" };
    const ivyUser = { id: 6402, first_name: "Ivy" };
    await link(hal, halUser);
    await link(ivy, ivyUser);
    await openApproval(hal, "toolu_tg_hal");
    await sentTo(hal, halUser.id, "sendMessage", 2);
    const approve = buttonsOf(await lastCard(halUser.id)).Approve as string;
    await sendUpdate(pressFrom(ivyUser, 1, approve));
    expect((await callsTo(ivyUser.id, "sendMessage")).at(-1)?.body.text).toContain("not for a card of yours");
    expect((await hal.inbox()).cards.map((c) => c.interactionId)).toEqual(["toolu_tg_hal"]);
  });

  it("lets only the person mint link codes and see or remove links, never an inbox link", async () => {
    const jo = new Person("jo.links@example.com");
    const minted = await jo.api("POST", "/api/inbox/links", { body: { role: "answer", label: "Phone" } });
    const inboxLink = (await minted.json()) as MintedInboxLink;
    const viaLink = await exports.default.fetch(`${ORIGIN}/api/channels/link-codes`, {
      method: "POST",
      headers: { authorization: `Bearer ${inboxLink.token}`, "content-type": "application/json" },
      body: JSON.stringify({ platform: "telegram" }),
    });
    expect(viaLink.status).toBe(401);
    const bad = await jo.api("POST", "/api/channels/link-codes", { body: { platform: "fax" } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { code: "invalid_input", message: expect.stringContaining("platform") },
    });
    expect(await (await jo.api("GET", "/api/channels/links")).json()).toEqual({ links: [] });
    expect(await (await jo.api("GET", "/api/channels")).json()).toEqual({
      platforms: ["telegram", "slack", "discord"],
    });
  });
});
