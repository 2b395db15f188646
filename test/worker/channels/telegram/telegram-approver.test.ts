// An invited approver's own Telegram account: Bo links it from his answering page for Ana (a code
// sent in a direct message, as Ana links hers), and a rung of Ana's card's ladder to "approvers" with
// `chat` sends him the card with what an approver may press. His press answers as Bo, a person of his
// own — never as Ana — counts as a second person, and answers nothing once Ana removed him.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { NO_LONGER_APPROVER } from "../../../../src/inbox/inbox-chat-answers";
import type { InboxObject } from "../../../../src/inbox/inbox-object";
import type { DecisionPage } from "../../../../src/protocol/inbox/decisions";
import { runInDurableObject } from "../../../helpers/run-in-object";
import { advanceClock, stubOf } from "../../../helpers/session-object-probe";
import { deliverOutbox, inboxObject, Person } from "../../inbox/inbox-fixtures";
import { inviteAndRedeem } from "../../people/people-fixtures";
import { channelObject } from "../chat-fixtures";
import {
  buttonsOf,
  callsTo,
  lastCard,
  link,
  pressFrom,
  replyFrom,
  sendUpdate,
  sentTo,
  type TelegramUser,
  textFrom,
} from "./telegram-fixtures";

type External = { sessionId: string; agentToken: string; token: string };

/** Invites `approver` as `name` with `scope` and redeems it; Ana's people list names them by email. */
async function invite(inviter: Person, approver: Person, name: string, scope: Record<string, unknown>) {
  return inviteAndRedeem(await inviter.headers(), await approver.headers(), {
    name,
    email: approver.email,
    ...scope,
  });
}

/** `approver` links `user` from their answering page for `inviter`, with a code sent to the bot. */
async function linkAsApprover(inviter: Person, approver: Person, user: TelegramUser): Promise<string> {
  const minted = await approver.api("POST", `/api/people/answering/${inviter.email}/chat/link-codes`, {
    body: { platform: "telegram" },
  });
  expect(minted.status, await minted.clone().text()).toBe(201);
  const { code } = (await minted.json()) as { code: string };
  expect((await sendUpdate(textFrom(user, `/start ${code}`))).status).toBe(200);
  return code;
}

/** A card of Ana's external agent whose ladder's one rung, after two minutes, is chat to approvers. */
async function cardWithApproverRung(person: Person, command: string) {
  const created = await person.api("POST", "/api/sessions", {
    body: {
      agent: { kind: "external", name: "Claude Code" },
      deadlinePolicies: {
        default: { escalate: [{ afterMs: 120_000, notify: ["chat"], to: "approvers" }] },
      },
    },
  });
  const session = (await created.json()) as External;
  const opened = await person.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
    token: session.agentToken,
    body: { kind: "approval", timeoutMs: 600_000, request: { toolName: "Bash", input: { command } } },
  });
  expect(opened.status, await opened.clone().text()).toBe(201);
  const { interactionId } = (await opened.json()) as { interactionId: string };
  await deliverOutbox(session);
  await runDurableObjectAlarm(inboxObject(person.email));
  return { session, interactionId };
}

/** The rung comes: two minutes pass on the session's clock and its report reaches the inbox. */
async function climb(person: Person, session: External): Promise<void> {
  await advanceClock(stubOf(session), { by: 120_000 });
  await runDurableObjectAlarm(stubOf(session));
  await deliverOutbox(session);
  await runDurableObjectAlarm(inboxObject(person.email));
}

const cardsTo = async (chatId: number) =>
  (await callsTo(chatId, "sendMessage")).filter((call) => call.body.reply_markup);
const lastWords = async (chatId: number) => (await callsTo(chatId, "sendMessage")).at(-1)?.body.text;

/** The chat links `person`'s inbox holds, and the accounts the channel object knows as `user`. */
async function linksOf(person: Person, user: TelegramUser) {
  const inbox = await runInDurableObject<InboxObject, string[]>(inboxObject(person.email), (_, state) =>
    state.storage.sql
      .exec<{ account_id: string }>(`SELECT account_id FROM chat_links`)
      .toArray()
      .map((row) => row.account_id),
  );
  const channel = await runInDurableObject(channelObject(), (_, state) =>
    state.storage.sql
      .exec(
        `SELECT link_id FROM chat_accounts WHERE platform = 'telegram' AND account_id = ?`,
        String(user.id),
      )
      .toArray(),
  );
  return { inbox, channel };
}

async function decisions(person: Person, session: External): Promise<DecisionPage> {
  return (await (
    await person.api("GET", `/api/decisions?session=${session.sessionId}`)
  ).json()) as DecisionPage;
}

describe("an approver's own Telegram account", { timeout: 60_000 }, () => {
  it("is linked as the approver, gets the card only from a rung to approvers, and answers as the approver", async () => {
    const ana = new Person("ana.tg.approver@example.com");
    const bo = new Person("bo.tg.approver@example.com");
    const anaUser = { id: 7601, first_name: "Ana" };
    const boUser = { id: 7602, first_name: "Bo" };
    await link(ana, anaUser);
    await invite(ana, bo, "Bo", { scope: "all" });
    await linkAsApprover(ana, bo, boUser);
    expect(await lastWords(boUser.id)).toBe(
      `Linked to Parley as an approver of ${ana.email}. Cards their escalation sends you will arrive here, with buttons.`,
    );

    // Bo's account is Bo's to list and unlink; Ana's own accounts are only hers.
    const bosLinks = await bo.api("GET", `/api/people/answering/${ana.email}/chat/links`);
    const listed = (await bosLinks.json()) as { links: { accountId: string }[]; platforms: string[] };
    expect(listed.platforms).toContain("telegram");
    expect(listed.links).toEqual([
      expect.objectContaining({ platform: "telegram", accountId: String(boUser.id) }),
    ]);
    const anasLinks = (await (await ana.api("GET", "/api/channels/links")).json()) as {
      links: { accountId: string }[];
    };
    expect(anasLinks.links.map((one) => one.accountId)).toEqual([String(anaUser.id)]);

    // The card opens: Ana's account gets it, Bo's nothing until the rung.
    const { session, interactionId } = await cardWithApproverRung(ana, "make release");
    await sentTo(ana, anaUser.id, "sendMessage", 2);
    expect(await cardsTo(boUser.id)).toEqual([]);

    await climb(ana, session);
    await sentTo(ana, boUser.id, "sendMessage", 2);
    const card = await lastCard(boUser.id);
    expect(card.body.text).toContain("make release");
    // Only what an approver may do: no grant, no more time.
    expect(Object.keys(buttonsOf(card))).toEqual(["Approve", "Deny", "Deny with reason"]);
    expect(Object.keys(buttonsOf(await lastCard(anaUser.id)))).toContain("Allow…");

    // A grant or more time, pressed anyway with data of his own making, is not offered to him.
    const approve = buttonsOf(card).Approve!;
    for (const forged of [approve.replace('.a"', '.al"'), approve.replace('.a"', '.x"')]) {
      await sendUpdate(pressFrom(boUser, 1, forged));
      expect(await lastWords(boUser.id)).toBe("This card does not offer that choice.");
    }

    expect((await sendUpdate(pressFrom(boUser, 1, buttonsOf(card).Approve!))).status).toBe(200);
    await deliverOutbox(session);
    const page = await decisions(ana, session);
    expect(page.decisions).toEqual([
      expect.objectContaining({
        interactionId,
        outcome: "approved",
        decidedBy: expect.objectContaining({ personId: bo.email, label: "Bo · Telegram", device: "chat" }),
      }),
    ]);
    // Both messages take the receipt and lose their buttons.
    const boEdits = await sentTo(ana, boUser.id, "editMessageText", 1);
    expect(boEdits.at(-1)?.body.text).toBe("Approved by Bo · Telegram");
    expect(boEdits.at(-1)?.body.reply_markup).toEqual({ inline_keyboard: [] });
    const anaEdits = await sentTo(ana, anaUser.id, "editMessageText", 1);
    expect(anaEdits.at(-1)?.body.text).toBe("Approved by Bo · Telegram");
  });

  it("counts as a second person: alone it leaves a two-person call at 1 of 2, after the person's approval it runs it", async () => {
    const ana = new Person("ana.tg.approver.two@example.com");
    const bo = new Person("bo.tg.approver.two@example.com");
    const anaUser = { id: 7611, first_name: "Ana" };
    const boUser = { id: 7612, first_name: "Bo" };
    await link(ana, anaUser);
    await invite(ana, bo, "Bo", { scope: "all" });
    await linkAsApprover(ana, bo, boUser);

    // Bo alone: his approval counts once, and the card waits for a second person.
    const alone = await cardWithApproverRung(ana, "git push origin main");
    await climb(ana, alone.session);
    await sentTo(ana, boUser.id, "sendMessage", 2);
    const first = await lastCard(boUser.id);
    await sendUpdate(pressFrom(boUser, 1, buttonsOf(first).Approve!));
    expect(await lastWords(boUser.id)).toContain("Your approval counts: 1 of 2 approvals");
    const pending = await ana.api(
      "GET",
      `/api/sessions/${alone.session.sessionId}/interactions/${alone.interactionId}`,
      { token: alone.session.agentToken },
    );
    expect(await pending.json()).toMatchObject({ status: "pending" });

    // Ana approves from her own account, Bo from his: two people, the call runs.
    const both = await cardWithApproverRung(ana, "git push origin release");
    const anaCard = (await cardsTo(anaUser.id)).at(-1)!;
    await sendUpdate(pressFrom(anaUser, 1, buttonsOf(anaCard).Approve!));
    expect(await lastWords(anaUser.id)).toContain("Your approval counts: 1 of 2 approvals");
    await climb(ana, both.session);
    await sentTo(ana, boUser.id, "sendMessage", 4);
    const second = await lastCard(boUser.id);
    expect(second.body.text).toContain("git push origin release");
    await sendUpdate(pressFrom(boUser, 2, buttonsOf(second).Approve!));
    await deliverOutbox(both.session);
    const [record] = (await decisions(ana, both.session)).decisions;
    expect(record).toMatchObject({ outcome: "approved", decidedBy: { personId: bo.email } });
    expect(record?.approvals?.map((one) => one.personId)).toEqual([ana.email, bo.email]);
  });

  it("reaches only the approvers whose scope covers the card", async () => {
    const ana = new Person("ana.tg.approver.scope@example.com");
    const bo = new Person("bo.tg.approver.scope@example.com");
    const cy = new Person("cy.tg.approver.scope@example.com");
    const boUser = { id: 7621, first_name: "Bo" };
    const cyUser = { id: 7622, first_name: "Cy" };
    await invite(ana, bo, "Bo", { scope: "all" });
    await invite(ana, cy, "Cy", { scope: "rule", rule: "Bash(git push:*)" });
    await linkAsApprover(ana, bo, boUser);
    await linkAsApprover(ana, cy, cyUser);

    const release = await cardWithApproverRung(ana, "make release");
    await climb(ana, release.session);
    await sentTo(ana, boUser.id, "sendMessage", 2);
    expect(await cardsTo(cyUser.id)).toEqual([]);

    const push = await cardWithApproverRung(ana, "git push origin main");
    await climb(ana, push.session);
    await sentTo(ana, cyUser.id, "sendMessage", 2);
    expect((await lastCard(cyUser.id)).body.text).toContain("git push origin main");
    expect((await cardsTo(cyUser.id)).length).toBe(1);
  });

  it("answers nothing once the approver is removed, and drops their link", async () => {
    const ana = new Person("ana.tg.approver.removed@example.com");
    const bo = new Person("bo.tg.approver.removed@example.com");
    const boUser = { id: 7631, first_name: "Bo" };
    await invite(ana, bo, "Bo", { scope: "all" });
    await linkAsApprover(ana, bo, boUser);
    const { session, interactionId } = await cardWithApproverRung(ana, "make release");
    await climb(ana, session);
    await sentTo(ana, boUser.id, "sendMessage", 2);
    const card = await lastCard(boUser.id);
    const people = (await (await ana.api("GET", "/api/people")).json()) as {
      approvers: { approverId: string }[];
    };
    const listed = (await (await bo.api("GET", `/api/people/answering/${ana.email}/chat/links`)).json()) as {
      links: { linkId: string }[];
    };

    expect((await ana.api("DELETE", `/api/people/${bo.email}`)).status).toBe(200);
    expect((await sendUpdate(pressFrom(boUser, 1, buttonsOf(card).Approve!))).status).toBe(200);
    expect(await lastWords(boUser.id)).not.toMatch(/^Approved|counts/);
    const still = await ana.api("GET", `/api/sessions/${session.sessionId}/interactions/${interactionId}`, {
      token: session.agentToken,
    });
    expect(await still.json()).toMatchObject({ status: "pending" });
    // The link went with him: the account is not linked, and neither object holds it.
    expect(await lastWords(boUser.id)).toMatch(/not linked/i);
    expect(await linksOf(ana, boUser)).toEqual({ inbox: [], channel: [] });
    expect((await bo.api("GET", `/api/people/answering/${ana.email}/chat/links`)).status).toBe(403);

    // A press the channel object passed on before the link went answers nothing in the inbox either.
    const [, ref, code] = /"(\d+)\.([a-z0-9]+)"/.exec(buttonsOf(card).Approve!) ?? [];
    expect(code).toBe("a");
    const raced = await inboxObject(ana.email).answerAsAccount(
      {
        person: ana.email,
        linkId: listed.links[0]!.linkId,
        platform: "telegram",
        accountId: String(boUser.id),
        name: "Bo",
        approverId: people.approvers[0]!.approverId,
      },
      { type: "press", ref: Number(ref), code: code!, text: null },
    );
    expect(raced).toBe(NO_LONGER_APPROVER);
    const after = await ana.api("GET", `/api/sessions/${session.sessionId}/interactions/${interactionId}`, {
      token: session.agentToken,
    });
    expect(await after.json()).toMatchObject({ status: "pending" });
  });

  it("never links an approver's code into the person's identity", async () => {
    const ana = new Person("ana.tg.approver.identity@example.com");
    const bo = new Person("bo.tg.approver.identity@example.com");
    const boUser = { id: 7641, first_name: "Bo" };
    await invite(ana, bo, "Bo", { scope: "all" });
    await linkAsApprover(ana, bo, boUser);

    // Not among Ana's own accounts, not hers to unlink, and sent none of her cards.
    const anas = (await (await ana.api("GET", "/api/channels/links")).json()) as { links: unknown[] };
    expect(anas.links).toEqual([]);
    const [bosLink] = (
      (await (await bo.api("GET", `/api/people/answering/${ana.email}/chat/links`)).json()) as {
        links: { linkId: string }[];
      }
    ).links;
    expect((await ana.api("DELETE", `/api/channels/links/${bosLink?.linkId}`)).status).toBe(404);
    const { session } = await cardWithApproverRung(ana, "make release");
    await runDurableObjectAlarm(inboxObject(ana.email));
    expect(await cardsTo(boUser.id)).toEqual([]);

    // A reply to the card he was sent is not a message from Ana to her session.
    await climb(ana, session);
    await sentTo(ana, boUser.id, "sendMessage", 2);
    const messageId = ((await lastCard(boUser.id)).result as { message_id: number }).message_id;
    await sendUpdate(replyFrom(boUser, messageId, "use the staging database"));
    expect(await lastWords(boUser.id)).toMatch(/approver/i);

    // Bo unlinks it himself; a second unlink finds nothing.
    const path = `/api/people/answering/${ana.email}/chat/links/${bosLink?.linkId}`;
    expect((await bo.api("DELETE", path)).status).toBe(200);
    expect((await bo.api("DELETE", path)).status).toBe(404);
  });
});
