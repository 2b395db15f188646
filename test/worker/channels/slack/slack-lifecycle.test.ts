// Slack over time: a press and a modal still answer after Parley's objects restart (the links, the
// cards and the modal's context live in SQLite), and an event Slack delivers again is handled once.
import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { runInDurableObject } from "../../../helpers/run-in-object";
import { stubOf } from "../../../helpers/session-object-probe";
import { dmOf } from "../../../helpers/slack-api";
import { deliverOutbox, inboxObject, Person } from "../../inbox/inbox-fixtures";
import { channelObject, openApproval } from "../chat-fixtures";
import {
  agentAsks,
  buttonsOf,
  callsTo,
  cardsTo,
  directMessage,
  linkSlack,
  nameUser,
  press,
  sendEvent,
  sendForm,
  sentTo,
  slackCalls,
  submitText,
} from "./slack-fixtures";

/** Resets the channel object, as a crash would (it serves every test's webhooks, so it may be busy). */
async function restartChannelObject() {
  const before = await runInDurableObject(channelObject(), (instance) => instance);
  await runInDurableObject(channelObject(), (_, state) => state.abort("restart")).catch(() => {});
  expect(await runInDurableObject(channelObject(), (instance) => instance)).not.toBe(before);
}

describe("slack over time", { timeout: 60_000 }, () => {
  it("still answers a press after the channel, inbox and session objects all restarted", async () => {
    const ivy = new Person("ivy.slack-restart@example.com");
    const user = { id: "UIVY1", name: "Ivy" };
    await linkSlack(ivy, user);
    const session = await openApproval(ivy, "toolu_slack_restart");
    await sentTo(ivy, dmOf(user.id), "chat.postMessage", 1);
    const approve = buttonsOf((await cardsTo(dmOf(user.id)))[0]!).Approve!;
    await evictDurableObject(inboxObject(ivy.email));
    await evictDurableObject(stubOf(session));
    await restartChannelObject();
    expect((await sendForm(press(user, approve))).status).toBe(200);
    await deliverOutbox(session);
    expect((await ivy.inbox()).cards).toEqual([]);
    const [edit] = await sentTo(ivy, dmOf(user.id), "chat.update", 1);
    expect(JSON.stringify(edit?.body.blocks)).toContain("Approved by Ivy · Slack");
  });

  it("denies with the modal's reason when the channel object restarted while the modal was open", async () => {
    const jo = new Person("jo.slack-modal-restart@example.com");
    const user = { id: "UJO1", name: "Jo" };
    await linkSlack(jo, user);
    const asked = await agentAsks(jo, "git push --force");
    await sentTo(jo, dmOf(user.id), "chat.postMessage", 1);
    const reasonButton = buttonsOf((await cardsTo(dmOf(user.id)))[0]!)["Deny with reason"]!;
    await sendForm(press(user, reasonButton));
    const opened = (await slackCalls()).find(
      (call) => call.method === "views.open" && call.body.trigger_id === `trigger-${user.id}-${reasonButton}`,
    );
    const view = opened?.body.view as { private_metadata: string };
    await restartChannelObject();
    expect((await sendForm(submitText(user, view.private_metadata, "Ask Ana first."))).status).toBe(200);
    expect((await asked.read()).resolution).toMatchObject({
      outcome: "denied",
      response: { reason: "Ask Ana first." },
    });
  });

  it("links once and answers once when Slack delivers the same direct message again", async () => {
    const kim = new Person("kim.slack-redeliver@example.com");
    const user = { id: "UKIM1", name: "Kim" };
    await nameUser(user);
    const minted = await kim.api("POST", "/api/channels/link-codes", { body: { platform: "slack" } });
    const { code } = (await minted.json()) as { code: string };
    const event = directMessage(user, code);
    expect((await sendEvent(event)).status).toBe(200);
    // Slack did not see the answer in time and sends the same event, marked as its first retry.
    expect((await sendEvent(event, 1)).status).toBe(200);
    const replies = await callsTo(dmOf(user.id), "chat.postMessage");
    expect(replies).toHaveLength(1);
    expect(JSON.stringify(replies[0]?.body)).toContain(`Linked to Parley as ${kim.email}`);
  });
});
