// Deadlines seen from Telegram: More time pressed in the chat moves the card's deadline, and a card
// whose deadline passes has its message edited to what the deadline did, with its buttons gone.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { textReply, toolReply } from "../../../helpers/session-harness";
import { advanceClock, stubOf } from "../../../helpers/session-object-probe";
import { ask, deliverOutbox, Person } from "../../inbox/inbox-fixtures";
import { buttonsOf, callsTo, lastCard, link, pressFrom, sendUpdate, sentTo } from "./telegram-fixtures";

const POLICIES = { default: { extendByMs: 30_000, maxWaitMs: 100_000 } };

async function cardInChat(person: Person, user: { id: number; first_name: string }, id: string) {
  await link(person, user);
  const session = await person.createSession({
    interactionTimeoutMs: 60_000,
    deadlinePolicies: POLICIES,
    script: [ask(id), textReply("Noted.")],
  });
  const laptop = await person.connect(session);
  await laptop.request({ type: "send_message", text: "Set it up" });
  const prompt = await laptop.waitForEvent("question_prompt");
  await deliverOutbox(session);
  await sentTo(person, user.id, "sendMessage", 2);
  return { session, laptop, prompt, buttons: buttonsOf(await lastCard(user.id)) };
}

// The first test of a file also loads the Worker and the Chat SDK into a fresh runtime.
describe("telegram and deadlines", { timeout: 60_000 }, () => {
  it("gives the card more time when More time is pressed, as the linked person", async () => {
    const kim = new Person("kim.more@example.com");
    const user = { id: 7101, first_name: "Kim" };
    const { laptop, prompt, buttons } = await cardInChat(kim, user, "toolu_tg_more");
    expect(buttons["More time"]).toBeDefined();
    await sendUpdate(pressFrom(user, 1, buttons["More time"] as string));
    const extended = await laptop.waitForEvent("interaction_extended");
    expect(extended.data).toMatchObject({
      expiresAt: prompt.data.expiresAt + 30_000,
      extendedBy: "chat-telegram-7101",
      answeredBy: "Kim · Telegram",
    });
    expect((await callsTo(user.id, "sendMessage")).at(-1)?.body.text).toBe("More time given.");
    laptop.close();
  });

  it("edits a question's message to Timed out — no answer, without buttons, when its deadline passes", async () => {
    const lou = new Person("lou.timeout@example.com");
    const user = { id: 7201, first_name: "Lou" };
    const { session, laptop, prompt } = await cardInChat(lou, user, "toolu_tg_timeout");
    await advanceClock(session, { at: prompt.data.expiresAt + 1 });
    await runDurableObjectAlarm(stubOf(session));
    await laptop.waitForEvent("interaction_resolved");
    await deliverOutbox(session);
    const [edit] = await sentTo(lou, user.id, "editMessageText", 1);
    expect(edit?.body.text).toBe("Timed out — no answer");
    expect(edit?.body.reply_markup).toEqual({ inline_keyboard: [] });
    laptop.close();
  });

  it("edits an approval's message to Timed out — denied, without buttons", async () => {
    const mo = new Person("mo.deny-timeout@example.com");
    const user = { id: 7301, first_name: "Mo" };
    await link(mo, user);
    const session = await mo.createSession({
      interactionTimeoutMs: 60_000,
      script: [
        toolReply([{ id: "toolu_tg_deny_timeout", name: "notes_write", input: { key: "k", text: "v" } }]),
        textReply("Not saved."),
      ],
    });
    const laptop = await mo.connect(session);
    await laptop.request({ type: "send_message", text: "Write it" });
    const prompt = await laptop.waitForEvent("approval_required");
    await deliverOutbox(session);
    await sentTo(mo, user.id, "sendMessage", 2);
    await advanceClock(session, { at: prompt.data.expiresAt + 1 });
    await runDurableObjectAlarm(stubOf(session));
    const resolved = await laptop.waitForEvent("interaction_resolved");
    expect(resolved.data.outcome).toBe("timed_out");
    await deliverOutbox(session);
    const [edit] = await sentTo(mo, user.id, "editMessageText", 1);
    expect(edit?.body.text).toBe("Timed out — denied");
    expect(edit?.body.reply_markup).toEqual({ inline_keyboard: [] });
    laptop.close();
  });
});
