// Messages from Discord: a card's Message button (on the card and on its receipt) opens a modal
// whose text reaches that card's session as the linked account's message; any other account, place,
// message or text is refused, and the session hears nothing.
import { describe, expect, it } from "vitest";
import { MAX_MESSAGE_CHARS } from "../../../../src/protocol/limits";
import type { CreatedSession } from "../../../helpers/session-harness";
import { deliverOutbox, Person } from "../../inbox/inbox-fixtures";
import { openApproval } from "../chat-fixtures";
import { userMessages } from "../reply-fixtures";
import {
  answerOf,
  buttonsOf,
  dmOf,
  link,
  messageFrom,
  messageIdOf,
  messageModalFrom,
  pressFrom,
  RECEIPT_COMPONENTS,
  sendInteraction,
  sentTo,
  signed,
} from "./discord-fixtures";

const EPHEMERAL = 64;
const MODAL = 9;

/** Every event the session logged, read with its owner token. */
async function eventCount(person: Person, session: CreatedSession): Promise<number> {
  const page = await person.api("GET", `/api/sessions/${session.sessionId}/events?after=0`, {
    token: session.token,
  });
  expect(page.status).toBe(200);
  return ((await page.json()) as { events: unknown[] }).events.length;
}

async function titleOf(person: Person, session: CreatedSession): Promise<string> {
  const title = (await person.inbox()).sessions.find((s) => s.sessionId === session.sessionId)?.title;
  if (!title) throw new Error("the inbox names every session it shows");
  return title;
}

/** What an ephemeral answer said. */
async function said(response: Response): Promise<string | undefined> {
  const answer = await answerOf(response);
  expect(answer).toMatchObject({ type: 4, data: { flags: EPHEMERAL } });
  return answer.data?.content;
}

describe("discord messages to a card's session", { timeout: 60_000 }, () => {
  it("A Discord card's Message opens a modal for its session, whose text reaches the session as the linked account's message; its receipt keeps Message, which does the same", async () => {
    const ana = new Person("ana.discord.message@example.com");
    const user = { id: "910000000000000001", username: "ana", global_name: "Ana" };
    await link(ana, user);
    const session = await openApproval(ana, "toolu_dc_message");
    const [card] = await sentTo(ana, dmOf(user), "post", 1);
    expect(buttonsOf(card!)).toMatchObject({ Approve: expect.any(String), Message: "message" });
    const messageId = await messageIdOf(ana, "toolu_dc_message");
    if (!messageId) throw new Error("the card was posted");
    const title = await titleOf(ana, session);

    const modal = await answerOf(await sendInteraction(messageFrom(user, messageId)));
    expect(modal.type).toBe(MODAL);
    // Discord's Label (18) holding a paragraph (style 2) text input (4), as its modal docs show now.
    expect(modal.data).toMatchObject({
      custom_id: `message.${messageId}`,
      title: "Message the session",
      components: [
        {
          type: 18,
          label: `Message to ${title}`,
          component: { type: 4, custom_id: "message", style: 2, required: true, max_length: 4000 },
        },
      ],
    });

    const sent = await sendInteraction(
      messageModalFrom(user, `message.${messageId}`, "Use the staging database", { messageId }),
    );
    expect(await said(sent)).toBe(`Sent to ${title}.`);
    expect(await userMessages(ana, session)).toContainEqual(
      expect.objectContaining({
        text: "Use the staging database",
        by: "Ana · Discord",
        deviceId: `chat-discord-${user.id}`,
      }),
    );

    // The card answered, its message is edited to the receipt, which keeps Message.
    await sendInteraction(pressFrom(user, buttonsOf(card!).Approve!));
    await deliverOutbox(session);
    const [receipt] = await sentTo(ana, dmOf(user), "edit", 1);
    expect(receipt?.path).toBe(`/channels/${dmOf(user)}/messages/${messageId}`);
    expect(receipt?.body.components).toEqual(RECEIPT_COMPONENTS);
    expect((await answerOf(await sendInteraction(messageFrom(user, messageId)))).type).toBe(MODAL);
    await sendInteraction(
      messageModalFrom(user, `message.${messageId}`, "And note it in the log", { messageId }),
    );
    const texts = (await userMessages(ana, session)).map((message) => message.text);
    expect(texts).toEqual(["write the plan down", "Use the staging database", "And note it in the log"]);
  });

  it("refuses Message and its modal from an unlinked account, another person's account, a server channel, for a message that is not a card, empty or over the cap, and the session hears nothing", async () => {
    const bo = new Person("bo.discord.message-refused@example.com");
    const user = { id: "910000000000000011", username: "bo" };
    await link(bo, user);
    const session = await openApproval(bo, "toolu_dc_message_refused");
    await sentTo(bo, dmOf(user), "post", 1);
    const messageId = await messageIdOf(bo, "toolu_dc_message_refused");
    if (!messageId) throw new Error("the card was posted");
    const modalId = `message.${messageId}`;
    const before = await eventCount(bo, session);

    const stranger = { id: "910000000000000012", username: "mallory" };
    expect(await said(await sendInteraction(messageFrom(stranger, messageId)))).toContain("not linked");
    expect(
      await said(
        await sendInteraction(messageModalFrom(stranger, modalId, "from a stranger", { messageId })),
      ),
    ).toContain("not linked");

    // Another person's linked account naming Bo's card message, as if pressed there.
    const eve = { id: "910000000000000013", username: "eve" };
    await link(new Person("eve.discord.message-refused@example.com"), eve);
    expect(await said(await sendInteraction(messageFrom(eve, messageId)))).toContain(
      "not one of your Parley cards",
    );
    expect(
      await said(
        await sendInteraction(messageModalFrom(eve, modalId, "from another account", { messageId })),
      ),
    ).toContain("not one of your Parley cards");

    const server = { guildId: "46", channelId: "47" };
    expect(await said(await sendInteraction(messageFrom(user, messageId, server)))).toContain(
      "direct message",
    );
    expect(
      await said(
        await sendInteraction(messageModalFrom(user, modalId, "in a server", { messageId, guild: server })),
      ),
    ).toContain("direct message");

    // A message that is no card of Bo's (the link's answer is not a message Parley posted), or none.
    expect(await said(await sendInteraction(messageFrom(user, "1")))).toContain(
      "not one of your Parley cards",
    );
    expect(await said(await sendInteraction(messageFrom(user, undefined)))).toContain(
      "not one of your Parley cards",
    );
    expect(await said(await sendInteraction(messageModalFrom(user, "message.1", "to no card")))).toContain(
      "not one of your Parley cards",
    );

    expect(await said(await sendInteraction(messageModalFrom(user, modalId, "  \n ", { messageId })))).toBe(
      "Nothing was written, so nothing was sent.",
    );
    const tooLong = "x".repeat(MAX_MESSAGE_CHARS + 1);
    expect(await said(await sendInteraction(messageModalFrom(user, modalId, tooLong, { messageId })))).toBe(
      `Not sent: a message to a session is at most ${MAX_MESSAGE_CHARS} characters.`,
    );

    const genuine = messageModalFrom(user, modalId, "forged", { messageId });
    const forged = await sendInteraction(genuine, await signed(JSON.stringify({ ...genuine, id: "x" })));
    expect(forged.status).toBe(401);

    expect(await eventCount(bo, session)).toBe(before);
    expect((await userMessages(bo, session)).map((message) => message.text)).toEqual(["write the plan down"]);
  });
});
