// The Discord account over time: a question answered with its option buttons, a restart of every
// object between the message and the press, a press from another person's linked account, and
// unlinking.
import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { runInDurableObject } from "../../../helpers/run-in-object";
import { textReply } from "../../../helpers/session-harness";
import { stubOf } from "../../../helpers/session-object-probe";
import { ask, deliverOutbox, inboxObject, Person } from "../../inbox/inbox-fixtures";
import { channelObject, openApproval } from "../chat-fixtures";
import {
  answerOf,
  buttonsOf,
  callsTo,
  dmOf,
  link,
  pressFrom,
  sendInteraction,
  sentTo,
} from "./discord-fixtures";

const QUESTION = "Which database should the service use?";

async function lastCard(channelId: string) {
  const card = (await callsTo(channelId, "post")).at(-1);
  if (!card) throw new Error(`no card was posted to ${channelId}`);
  return card;
}

describe("discord over time", { timeout: 60_000 }, () => {
  it("answers a question with the option pressed, as the linked account", async () => {
    const ed = new Person("ed.discord.question@example.com");
    const user = { id: "880000000000000001", username: "ed", global_name: "Ed" };
    await link(ed, user);
    const session = await ed.createSession({ script: [ask("toolu_dc_question"), textReply("Thanks.")] });
    const device = await ed.connect(session);
    await device.request({ type: "send_message", text: "Pick one" });
    await device.waitForEvent("question_prompt");
    await deliverOutbox(session);
    await sentTo(ed, dmOf(user), "post", 1);
    const buttons = buttonsOf(await lastCard(dmOf(user)));
    expect(Object.keys(buttons)).toEqual(expect.arrayContaining(["Postgres", "SQLite"]));

    expect(await answerOf(await sendInteraction(pressFrom(user, buttons.SQLite as string)))).toEqual({
      type: 6,
    });
    const resolved = await device.waitForEvent("interaction_resolved");
    expect(resolved.data).toMatchObject({
      answeredBy: "Ed · Discord",
      resolvedBy: `chat-discord-${user.id}`,
    });
    expect(resolved.data.response).toMatchObject({ answers: { [QUESTION]: "SQLite" } });
    device.close();
  });

  it("still answers a press after the channel, inbox and session objects all restarted", async () => {
    const fay = new Person("fay.discord.restart@example.com");
    const user = { id: "880000000000000002", username: "fay", global_name: "Fay" };
    await link(fay, user);
    const session = await openApproval(fay, "toolu_dc_restart");
    await sentTo(fay, dmOf(user), "post", 1);
    const approve = buttonsOf(await lastCard(dmOf(user))).Approve as string;
    await evictDurableObject(inboxObject(fay.email));
    await evictDurableObject(stubOf(session));
    const before = await runInDurableObject(channelObject(), (instance) => instance);
    await runInDurableObject(channelObject(), (_, state) => state.abort("restart")).catch(() => {});
    expect(await runInDurableObject(channelObject(), (instance) => instance)).not.toBe(before);
    expect(await answerOf(await sendInteraction(pressFrom(user, approve)))).toEqual({ type: 6 });
    await deliverOutbox(session);
    expect((await fay.inbox()).cards).toEqual([]);
    const [edit] = await sentTo(fay, dmOf(user), "edit", 1);
    expect(edit?.body.content).toBe("Approved by Fay · Discord");
  });

  it("refuses a press from another person's linked account, and every press of an account once it is unlinked", async () => {
    const hal = new Person("hal.discord.owner@example.com");
    const ivy = new Person("ivy.discord.other@example.com");
    const halUser = { id: "880000000000000003", username: "hal" };
    const ivyUser = { id: "880000000000000004", username: "ivy" };
    await link(hal, halUser);
    await link(ivy, ivyUser);
    await openApproval(hal, "toolu_dc_hal");
    await sentTo(hal, dmOf(halUser), "post", 1);
    const approve = buttonsOf(await lastCard(dmOf(halUser))).Approve as string;

    const other = await answerOf(await sendInteraction(pressFrom(ivyUser, approve)));
    expect(other.data).toMatchObject({
      flags: 64,
      content: expect.stringContaining("not for a card of yours"),
    });
    expect((await hal.inbox()).cards.map((c) => c.interactionId)).toEqual(["toolu_dc_hal"]);

    const { links } = (await (await hal.api("GET", "/api/channels/links")).json()) as {
      links: { linkId: string }[];
    };
    expect((await hal.api("DELETE", `/api/channels/links/${links[0]?.linkId}`)).status).toBe(200);
    const unlinked = await answerOf(await sendInteraction(pressFrom(halUser, approve)));
    expect(unlinked.data).toMatchObject({ flags: 64, content: expect.stringContaining("not linked") });
    expect((await hal.inbox()).cards.map((c) => c.interactionId)).toEqual(["toolu_dc_hal"]);
  });
});
