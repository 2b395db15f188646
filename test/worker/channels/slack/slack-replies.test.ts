// Replies in Slack: a linked account's message in the thread of one of its cards (the card or its
// receipt) reaches that card's session as a message from the account; a message in any other thread,
// from any other account, or outside a direct message is refused and the session hears nothing.
import { describe, expect, it } from "vitest";
import { dmOf } from "../../../helpers/slack-api";
import { Person } from "../../inbox/inbox-fixtures";
import { openApproval } from "../chat-fixtures";
import { userMessages } from "../reply-fixtures";
import {
  callsTo,
  cardsTo,
  directMessage,
  linkSlack,
  type SlackUser,
  sendEvent,
  sentTo,
} from "./slack-fixtures";

/** A message of `user` in the thread of message `threadTs` of `channel` (their DM with the app unless given). */
function threadReply(user: SlackUser, text: string, threadTs: string, channel = dmOf(user.id)): string {
  const callback = JSON.parse(directMessage(user, text, channel)) as { event: Record<string, unknown> };
  return JSON.stringify({ ...callback, event: { ...callback.event, thread_ts: threadTs } });
}

/** A person with a linked account and one approval waiting in its direct message; the card's `ts`. */
async function cardFor(email: string, user: SlackUser, toolUseId: string) {
  const person = new Person(email);
  await linkSlack(person, user);
  const session = await openApproval(person, toolUseId);
  await sentTo(person, dmOf(user.id), "chat.postMessage", 1);
  const [card] = await cardsTo(dmOf(user.id));
  return { person, session, ts: String(card?.result?.ts) };
}

/** What the app said last in the thread of `threadTs` in `channel`. */
async function saidInThread(channel: string, threadTs: string): Promise<unknown> {
  const said = (await callsTo(channel, "chat.postMessage")).filter(
    (call) => call.body.thread_ts === threadTs,
  );
  return said.at(-1)?.body.text;
}

describe("slack replies", { timeout: 60_000 }, () => {
  it("a message in a card's thread reaches its session as the linked account's message, and the thread is told where it went", async () => {
    const user = { id: "UREPLY1", name: "Ana" };
    const { person, session, ts } = await cardFor("ana.slack-reply@example.com", user, "toolu_slack_reply");
    const title = (await person.inbox()).sessions.find((s) => s.sessionId === session.sessionId)?.title;

    expect((await sendEvent(threadReply(user, "Use the staging database", ts))).status).toBe(200);
    expect(await userMessages(person, session)).toContainEqual(
      expect.objectContaining({
        text: "Use the staging database",
        by: "Ana · Slack",
        deviceId: `chat-slack-${user.id}`,
      }),
    );
    const told = (await callsTo(dmOf(user.id), "chat.postMessage")).filter(
      (call) => call.body.thread_ts === ts,
    );
    expect(told.at(-1)?.body).toMatchObject({
      text: `Sent to ${title}.`,
      mrkdwn: "false",
      unfurl_links: "false",
    });
  });

  it("refuses a thread message from an unlinked account, in another thread, outside a direct message or without a thread, and the session hears nothing", async () => {
    const user = { id: "UREPLY2", name: "Bo" };
    const { person, session, ts } = await cardFor(
      "bo.slack-reply@example.com",
      user,
      "toolu_slack_reply_refuse",
    );
    const before = await userMessages(person, session);

    const stranger = { id: "UREPLY3", name: "Mallory" };
    await sendEvent(threadReply(stranger, "from a stranger", ts));
    expect(await saidInThread(dmOf(stranger.id), ts)).toContain("not linked");

    // Another person's linked account, in its own direct message, naming Bo's card's thread.
    const eve = { id: "UREPLY4", name: "Eve" };
    await linkSlack(new Person("eve.slack-reply@example.com"), eve);
    await sendEvent(threadReply(eve, "from another account", ts));
    expect(await saidInThread(dmOf(eve.id), ts)).toContain("not one of your Parley cards");

    await sendEvent(threadReply(user, "to another message", "1700000000.000999"));
    expect(await saidInThread(dmOf(user.id), "1700000000.000999")).toContain("not one of your Parley cards");

    const channel = "CREPLIES";
    await sendEvent(threadReply(user, "in a channel", ts, channel));
    expect(await callsTo(channel, "chat.postMessage")).toEqual([]);

    await sendEvent(directMessage(user, "hello, not in a thread"));
    expect((await callsTo(dmOf(user.id), "chat.postMessage")).at(-1)?.body.text).toContain(
      "reply in the card's thread",
    );
    expect(await userMessages(person, session)).toEqual(before);
  });
});
