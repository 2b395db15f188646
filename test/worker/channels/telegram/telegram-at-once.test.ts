// A card's chat message is sent as soon as the inbox's step that stored it is done, not on the
// inbox's alarm, which keeps the retries. The inbox's clock runs an hour ahead of the platform's,
// so its alarm (set by the platform's time) cannot be what sends.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { inboxObject, moveInboxClock, Person } from "../../inbox/inbox-fixtures";
import { chatDelivery, firstAttemptFailed, openApproval } from "../chat-fixtures";
import { callsTo, failNext, link } from "./telegram-fixtures";

const HOUR = 3_600_000;

function chatRow(person: Person) {
  return chatDelivery(person, "telegram");
}

async function cardsPosted(chatId: number) {
  return (await callsTo(chatId, "sendMessage")).filter((call) => call.body.reply_markup);
}

// The first test of a file also loads the Worker and the Chat SDK into a fresh runtime.
describe("a chat message's first attempt", { timeout: 60_000 }, () => {
  it("posts a card to a linked account once the inbox stored it, without the inbox's alarm", async () => {
    const ana = new Person("ana.at-once@example.com");
    const user = { id: 5991, first_name: "Ana" };
    await link(ana, user);
    const now = await moveInboxClock(ana, { by: HOUR });
    await openApproval(ana, "toolu_tg_at_once");
    await expect.poll(async () => (await cardsPosted(user.id)).length).toBe(1);
    await expect.poll(() => chatRow(ana)).toMatchObject({ status: "delivered", attempts: 1 });
    // Stored at the inbox's time, an hour past the platform's: its alarm could not have fired.
    expect((await chatRow(ana))?.createdAt).toBeGreaterThanOrEqual(now);
  });

  it("leaves a failed post to the alarm, which sends it at the schedule's first retry", async () => {
    const bo = new Person("bo.at-once-retry@example.com");
    const user = { id: 5992, first_name: "Bo" };
    await link(bo, user);
    await failNext("sendMessage", user.id, [500]);
    const now = await moveInboxClock(bo, { by: HOUR });
    await openApproval(bo, "toolu_tg_at_once_retry");
    const row = await firstAttemptFailed(bo, "telegram");
    expect(row?.nextAt).toBeGreaterThanOrEqual(now + 5_000);
    expect(row?.nextAt).toBeLessThan(now + 30_000);
    expect(await cardsPosted(user.id)).toEqual([expect.objectContaining({ status: 500 })]);

    await moveInboxClock(bo, { at: row?.nextAt ?? 0 });
    await runDurableObjectAlarm(inboxObject(bo.email));
    expect(await chatRow(bo)).toMatchObject({ status: "delivered", attempts: 2 });
    expect((await cardsPosted(user.id)).map((call) => call.status)).toEqual([500, 200]);
  });
});
