// A rung of a card's escalation ladder in chat: the person's linked Telegram account gets a short
// plain-text "Still waiting" after the card's own message, sent from a stored row on the inbox's
// alarm (so an inbox evicted meanwhile still sends it), and nothing once the card is answered.
import { evictDurableObject, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { EscalationRung } from "../../../../src/protocol/cards/deadline-policy";
import { textReply } from "../../../helpers/session-harness";
import { advanceClock, stubOf } from "../../../helpers/session-object-probe";
import { ask, deliverOutbox, inboxObject, Person } from "../../inbox/inbox-fixtures";
import { callsTo, link, sentTo, type TelegramUser } from "./telegram-fixtures";

// Text the agent chose: markup Telegram would format under a parse mode, and a right-to-left override.
const QUESTION = "Ship <b>now</b> or *later*?\u202e";

async function cardWithLadder(person: Person, user: TelegramUser, id: string, ...rungs: EscalationRung[]) {
  await link(person, user);
  const session = await person.createSession({
    interactionTimeoutMs: 600_000,
    deadlinePolicies: { default: { escalate: rungs } },
    script: [ask(id, QUESTION), textReply("Noted.")],
  });
  const laptop = await person.connect(session);
  await laptop.request({ type: "send_message", text: "Plan the release" });
  await laptop.waitForEvent("question_prompt");
  await deliverOutbox(session);
  // The link's greeting, then the card.
  await sentTo(person, user.id, "sendMessage", 2);
  return { session, laptop };
}

async function climb(session: { sessionId: string }, byMs: number) {
  await advanceClock(stubOf(session), { by: byMs });
  await runDurableObjectAlarm(stubOf(session));
}

const reminders = async (chatId: number) =>
  (await callsTo(chatId, "sendMessage")).filter((call) => String(call.body.text).startsWith("Still waiting"));

describe("an escalation in chat", { timeout: 60_000 }, () => {
  it("sends the linked account Still waiting and the card's summary as plain text, without buttons", async () => {
    const ida = new Person("ida.escalation.chat@example.com");
    const user = { id: 8101, first_name: "Ida" };
    const rung = { afterMs: 60_000, notify: ["chat" as const], to: "me" as const };
    const { session, laptop } = await cardWithLadder(ida, user, "toolu_tg_escalate", rung);
    expect(await reminders(user.id)).toEqual([]);

    await climb(session, 60_000);
    await deliverOutbox(session);
    await sentTo(ida, user.id, "sendMessage", 3);
    const [reminder, ...more] = await reminders(user.id);
    expect(more).toEqual([]);
    // Literal: no parse mode reads the markup, and the override is spelled out, not obeyed.
    expect(reminder?.body.text).toMatch(
      /^Still waiting: The agent has a question — Ship <b>now<\/b> or \*later\*\?/,
    );
    expect(reminder?.body.text).not.toContain("\u202e");
    expect(reminder?.body.parse_mode).toBeUndefined();
    expect(reminder?.body.reply_markup).toBeUndefined();
    laptop.close();
  });

  it("sends the reminder from its stored row after the inbox is evicted before its alarm", async () => {
    const jo = new Person("jo.escalation.evicted@example.com");
    const user = { id: 8201, first_name: "Jo" };
    const rung = { afterMs: 30_000, notify: ["chat" as const], to: "me" as const };
    const { session, laptop } = await cardWithLadder(jo, user, "toolu_tg_escalate_evicted", rung);

    await climb(session, 30_000);
    await deliverOutbox(session);
    await evictDurableObject(inboxObject(jo.email));
    await sentTo(jo, user.id, "sendMessage", 3);
    expect(await reminders(user.id)).toHaveLength(1);
    laptop.close();
  });

  it("sends no reminder once the card is answered, though the rung ran before the answer reached the inbox", async () => {
    const kit = new Person("kit.escalation.answered@example.com");
    const user = { id: 8301, first_name: "Kit" };
    const rung = { afterMs: 30_000, notify: ["chat" as const], to: "me" as const };
    const { session, laptop } = await cardWithLadder(kit, user, "toolu_tg_escalate_answered", rung);

    await climb(session, 30_000);
    await laptop.request({
      type: "submit_answers",
      toolCallId: "toolu_tg_escalate_answered",
      answers: { [QUESTION]: "Postgres" },
    });
    await laptop.waitForEvent("interaction_resolved");
    // The rung and the answer reach the inbox in one delivery: the card's message gets its receipt.
    await deliverOutbox(session);
    await sentTo(kit, user.id, "editMessageText", 1);
    await runDurableObjectAlarm(inboxObject(kit.email));
    expect(await reminders(user.id)).toEqual([]);
    laptop.close();
  });

  it("sends a reminder for each chat rung of the ladder, the second after the first", async () => {
    const max = new Person("max.escalation.twice@example.com");
    const user = { id: 8501, first_name: "Max" };
    const { session, laptop } = await cardWithLadder(
      max,
      user,
      "toolu_tg_escalate_twice",
      { afterMs: 30_000, notify: ["chat"], to: "me" },
      { afterMs: 90_000, notify: ["chat"], to: "me" },
    );

    await climb(session, 30_000);
    await deliverOutbox(session);
    await sentTo(max, user.id, "sendMessage", 3);
    await climb(session, 60_000);
    await deliverOutbox(session);
    await sentTo(max, user.id, "sendMessage", 4);
    expect(await reminders(user.id)).toHaveLength(2);
    laptop.close();
  });

  it("sends the person's account nothing for a rung to approvers", async () => {
    const lee = new Person("lee.escalation.approvers@example.com");
    const user = { id: 8401, first_name: "Lee" };
    const rung = { afterMs: 30_000, notify: ["chat" as const], to: "approvers" as const };
    const { session, laptop } = await cardWithLadder(lee, user, "toolu_tg_escalate_approvers", rung);

    await climb(session, 30_000);
    await deliverOutbox(session);
    await runDurableObjectAlarm(inboxObject(lee.email));
    expect(await reminders(user.id)).toEqual([]);
    laptop.close();
  });
});
