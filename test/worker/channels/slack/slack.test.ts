// Slack in the real runtime, on the Chat SDK's Slack adapter with only the Web API stood in: an
// account linked with a one-time code gets each card of its person in its direct message with the
// app, a signed button press answers the card as that person, and refusals are ephemeral.
import { describe, expect, it } from "vitest";
import { dmOf } from "../../../helpers/slack-api";
import { deliverOutbox, Person } from "../../inbox/inbox-fixtures";
import { openApproval } from "../chat-fixtures";
import {
  buttonsOf,
  callsTo,
  cardsTo,
  directMessage,
  lastEphemeral,
  linkSlack,
  nameUser,
  press,
  sendEvent,
  sendForm,
  sentTo,
  slashCommand,
} from "./slack-fixtures";

async function pending(person: Person) {
  return (await person.inbox()).cards.map((card) => card.interactionId);
}

async function links(person: Person) {
  return ((await (await person.api("GET", "/api/channels/links")).json()) as { links: unknown[] }).links;
}

// The first test of a file also loads the Worker and the Chat SDK into a fresh runtime.
describe("slack", { timeout: 60_000 }, () => {
  it("answers Slack's signed URL check with its challenge", async () => {
    const response = await sendEvent(
      JSON.stringify({ type: "url_verification", challenge: "ch-4711", token: "t" }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ challenge: "ch-4711" });
  });

  it("links an account with /parley link and lists it among the person's devices; a spent code links nothing", async () => {
    const ana = new Person("ana.slack-link@example.com");
    const user = { id: "UANA1", name: "Ana" };
    await nameUser(user);
    const minted = await ana.api("POST", "/api/channels/link-codes", { body: { platform: "slack" } });
    expect(minted.status).toBe(201);
    const body = (await minted.json()) as { code: string; deepLink?: string };
    expect(body.deepLink).toBeUndefined();
    expect((await slashCommand(user, `link ${body.code}`)).status).toBe(200);
    expect(await lastEphemeral(user)).toContain(`Linked to Parley as ${ana.email}`);
    // The cards' thread is the app's direct message with the account, opened for it.
    expect(await callsTo(user.id, "conversations.open")).toHaveLength(1);
    expect(await links(ana)).toEqual([
      expect.objectContaining({ platform: "slack", accountId: "UANA1", name: "Ana" }),
    ]);
    const eve = { id: "UEVE1", name: "Eve" };
    await slashCommand(eve, `link ${body.code}`);
    expect(await lastEphemeral(eve)).toContain("unknown, used or expired");
    expect(await links(ana)).toHaveLength(1);
  });

  it("links an account with the code sent in a direct message, never from a channel", async () => {
    const bo = new Person("bo.slack-dm@example.com");
    const user = { id: "UBO1", name: "Bo" };
    await nameUser(user);
    const mint = async () =>
      (
        (await (
          await bo.api("POST", "/api/channels/link-codes", { body: { platform: "slack" } })
        ).json()) as {
          code: string;
        }
      ).code;
    const inChannel = await mint();
    expect((await sendEvent(directMessage(user, inChannel, "CGENERAL"))).status).toBe(200);
    expect(await links(bo)).toEqual([]);
    expect((await sendEvent(directMessage(user, await mint()))).status).toBe(200);
    expect(await links(bo)).toEqual([expect.objectContaining({ platform: "slack", accountId: "UBO1" })]);
    const replies = await callsTo(dmOf(user.id), "chat.postMessage");
    expect(JSON.stringify(replies.at(-1)?.body)).toContain(`Linked to Parley as ${bo.email}`);
  });

  it("posts an approval to the direct message as Block Kit, approves it on a signed press as the person, and edits it to the receipt", async () => {
    const cy = new Person("cy.slack-approve@example.com");
    const user = { id: "UCY1", name: "Cy" };
    await linkSlack(cy, user);
    const session = await openApproval(cy, "toolu_slack_approve");
    await sentTo(cy, dmOf(user.id), "chat.postMessage", 1);
    const [card] = await cardsTo(dmOf(user.id));
    expect(JSON.stringify(card?.body.blocks)).toContain("ship it");
    const buttons = buttonsOf(card!);
    expect(Object.keys(buttons)).toEqual(expect.arrayContaining(["Approve", "Deny", "Deny with reason"]));
    expect(buttons.Approve).not.toContain("ship it");

    expect((await sendForm(press(user, buttons.Approve!))).status).toBe(200);
    await deliverOutbox(session);
    expect(await pending(cy)).not.toContain("toolu_slack_approve");
    const [edit] = await sentTo(cy, dmOf(user.id), "chat.update", 1);
    expect(JSON.stringify(edit?.body.blocks)).toContain("Approved by Cy · Slack");
    expect(JSON.stringify(edit?.body.blocks)).not.toContain('"actions"');
    const record = (await (await cy.api("GET", "/api/decisions")).json()) as {
      decisions: { interactionId: string; decidedBy: unknown }[];
    };
    expect(record.decisions.find((d) => d.interactionId === "toolu_slack_approve")?.decidedBy).toEqual({
      kind: "chat",
      label: "Cy · Slack",
      id: `slack:${user.id}`,
      device: "chat",
      personId: cy.email,
    });
  });
});
