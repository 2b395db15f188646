// What Slack cannot do to a card, and what it does when the card moves elsewhere: a forged or
// replayed request, an unlinked account and a channel change nothing (and are told so where Slack
// lets Parley answer); a Web API failure is retried without a second message; a card answered in
// the browser loses its buttons and a later press gets the winner's receipt; Deny with reason asks
// for the reason in a modal and denies with it.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { runInDurableObject } from "../../../helpers/run-in-object";
import { dmOf, slackSignature } from "../../../helpers/slack-api";
import { deliverOutbox, inboxObject, Person } from "../../inbox/inbox-fixtures";
import { chatDelivery, firstAttemptFailed, openApproval } from "../chat-fixtures";
import {
  agentAsks,
  buttonsOf,
  callsTo,
  cardsTo,
  failNext,
  lastEphemeral,
  linkSlack,
  press,
  type SlackUser,
  sendForm,
  sentTo,
  slackCalls,
  slashCommand,
  submitText,
} from "./slack-fixtures";

async function pending(person: Person) {
  return (await person.inbox()).cards.map((card) => card.interactionId);
}

/** A person with a linked account and one approval waiting in its direct message; its buttons. */
async function cardFor(email: string, user: SlackUser, toolUseId: string) {
  const person = new Person(email);
  await linkSlack(person, user);
  const session = await openApproval(person, toolUseId);
  await sentTo(person, dmOf(user.id), "chat.postMessage", 1);
  const [card] = await cardsTo(dmOf(user.id));
  return { person, session, card: card!, buttons: buttonsOf(card!) };
}

describe("slack refusals and receipts", { timeout: 60_000 }, () => {
  it("changes nothing for a wrong signature or a request replayed outside the 5-minute window", async () => {
    const user = { id: "UDEE1", name: "Dee" };
    const { person, buttons } = await cardFor("dee.slack-forged@example.com", user, "toolu_slack_forged");
    const body = press(user, buttons.Approve!);
    const wrongSecret = slackSignature(body, Math.floor(Date.now() / 1000), "another-apps-signing-secret-00");
    // What names this account or its direct message: the stand-in also records the calls of the
    // channel files that run beside this one, in runtimes of their own.
    const callsAboutDee = async () =>
      (await slackCalls()).filter((call) => JSON.stringify(call.body).includes(user.id));
    const before = (await callsAboutDee()).length;

    expect((await sendForm(body, { signature: wrongSecret })).status).toBe(401);
    // Signed correctly, but six minutes ago: a captured request played again.
    const sixMinutesAgo = Math.floor(Date.now() / 1000) - 6 * 60;
    expect((await sendForm(body, { at: sixMinutesAgo })).status).toBe(401);
    // The body changed after signing (another button's value).
    const tampered = await sendForm(press(user, buttons.Deny!), {
      signature: slackSignature(body, Math.floor(Date.now() / 1000)),
    });
    expect(tampered.status).toBe(401);

    expect(await pending(person)).toContain("toolu_slack_forged");
    // Nothing was said or sent for them: an unverified request gets no answer in Slack.
    expect((await callsAboutDee()).length).toBe(before);
  });

  it("tells an unlinked account and a press in a channel, only them, that nothing changed", async () => {
    const user = { id: "UEM1", name: "Em" };
    const { person, buttons } = await cardFor("em.slack-refuse@example.com", user, "toolu_slack_refuse");
    const stranger = { id: "UMAL1", name: "Mallory" };
    expect((await sendForm(press(stranger, buttons.Approve!))).status).toBe(200);
    expect(await lastEphemeral(stranger)).toContain("not linked to Parley");

    expect((await sendForm(press(user, buttons.Approve!, "CGENERAL"))).status).toBe(200);
    expect(await lastEphemeral(user)).toContain("direct message");
    const shown = (await callsTo("CGENERAL", "chat.postEphemeral")).at(-1);
    expect(shown?.body.user).toBe(user.id);

    // A slash command with anything but `link <code>` links nothing and says how.
    await slashCommand(stranger, "approve everything");
    expect(await lastEphemeral(stranger)).toContain("/parley link");
    expect(await pending(person)).toContain("toolu_slack_refuse");
  });

  it("retries a card the Web API answered with a 500 and posts it exactly once", async () => {
    const fay = new Person("fay.slack-retry@example.com");
    const user = { id: "UFAY1", name: "Fay" };
    await linkSlack(fay, user);
    await failNext("chat.postMessage", dmOf(user.id), [500]);
    await openApproval(fay, "toolu_slack_retry");
    await runDurableObjectAlarm(inboxObject(fay.email));
    const row = await firstAttemptFailed(fay, "slack");
    expect(row?.nextAt).toBeGreaterThan(Date.now());
    // The retry's time comes (the row is moved to it, no waiting), and the alarm sends it.
    await runInDurableObject(inboxObject(fay.email), (_, state) => {
      state.storage.sql.exec(`UPDATE chat_deliveries SET next_at = 0 WHERE status = 'pending'`);
    });
    await runDurableObjectAlarm(inboxObject(fay.email));
    expect(await chatDelivery(fay, "slack")).toMatchObject({ status: "delivered", attempts: 2 });
    const posts = await callsTo(dmOf(user.id), "chat.postMessage");
    expect(posts.map((call) => call.status)).toEqual([500, 200]);
    expect(await cardsTo(dmOf(user.id))).toHaveLength(1);
  });

  it("edits the message when the card is answered in the browser, and a later press gets the winner's receipt", async () => {
    const user = { id: "UGUS1", name: "Gus" };
    const { person, session, card } = await cardFor("gus.slack-browser@example.com", user, "toolu_slack_web");
    const answered = await person.api(
      "POST",
      `/api/inbox/cards/${session.sessionId}/toolu_slack_web/respond`,
      { body: { response: { decision: "deny" } } },
    );
    expect(answered.status).toBe(200);
    await deliverOutbox(session);
    const [edit] = await sentTo(person, dmOf(user.id), "chat.update", 1);
    expect(edit?.body.ts).toBe(
      (await callsTo(dmOf(user.id), "chat.postMessage")).at(-1)?.body.ts ?? edit?.body.ts,
    );
    expect(JSON.stringify(edit?.body.blocks)).toContain(`Denied by ${person.email}`);
    expect(JSON.stringify(edit?.body.blocks)).not.toContain('"button"');

    await sendForm(press(user, buttonsOf(card).Approve!));
    expect(await lastEphemeral(user)).toBe(`Already decided: Denied by ${person.email}.`);
  });

  it("asks for the reason of Deny with reason in a modal and denies with it", async () => {
    const hal = new Person("hal.slack-reason@example.com");
    const user = { id: "UHAL1", name: "Hal" };
    await linkSlack(hal, user);
    const asked = await agentAsks(hal, "rm -rf build");
    await sentTo(hal, dmOf(user.id), "chat.postMessage", 1);
    const [card] = await cardsTo(dmOf(user.id));
    const reasonButton = buttonsOf(card!)["Deny with reason"]!;
    expect((await sendForm(press(user, reasonButton))).status).toBe(200);
    const [opened] = (await slackCalls()).filter(
      (call) => call.method === "views.open" && call.body.trigger_id === `trigger-${user.id}-${reasonButton}`,
    );
    const view = opened?.body.view as { callback_id: string; private_metadata: string; blocks: unknown[] };
    expect(view.callback_id).toBe("parley-text");
    expect(JSON.stringify(view.blocks)).toContain("plain_text_input");
    // The press alone answered nothing.
    expect((await asked.read()).status).toBe("pending");

    // Slack sends back the view's metadata as the adapter wrote it when opening the modal. Another
    // account submitting it is refused in the modal, and changes nothing.
    const stranger = { id: "UMAL2", name: "Mallory" };
    const refused = await sendForm(submitText(stranger, view.private_metadata, "no"));
    expect(await refused.json()).toEqual({
      response_action: "errors",
      errors: { text: expect.stringContaining("not linked") },
    });
    expect((await asked.read()).status).toBe("pending");

    const submitted = await sendForm(submitText(user, view.private_metadata, "Not on a Friday."));
    expect(submitted.status).toBe(200);
    expect(await submitted.text()).toBe("");
    expect((await asked.read()).resolution).toMatchObject({
      outcome: "denied",
      by: "chat-slack-UHAL1",
      response: { reason: "Not on a Friday." },
    });
  });
});
