// A press in one hop: the channel object verifies the press and hands it to the person's inbox in
// one call, which answers the card as the account and edits the message to its receipt before the
// webhook is answered; the inbox's alarm only retries an edit that failed, and never edits twice.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { InboxObject } from "../../../../src/inbox/inbox-object";
import { runInDurableObject } from "../../../helpers/run-in-object";
import { deliverOutbox, inboxObject, outboxSize, Person } from "../../inbox/inbox-fixtures";
import { openApproval } from "../chat-fixtures";
import {
  buttonsOf,
  callsTo,
  failNext,
  lastCard,
  link,
  pressFrom,
  sendUpdate,
  sentTo,
} from "./telegram-fixtures";

type ReceiptRow = { status: string; attempts: number; next_at: number | null; last_error: string | null };

/** The rows that edit `email`'s card messages to their receipts. */
async function receiptRows(email: string): Promise<ReceiptRow[]> {
  return runInDurableObject(inboxObject(email), (_, state) =>
    state.storage.sql
      .exec<ReceiptRow>(
        `SELECT status, attempts, next_at, last_error FROM chat_deliveries WHERE change = 'resolved' ORDER BY id`,
      )
      .toArray(),
  );
}

/**
 * Keeps the sessions' reports away from `email`'s inbox until the returned release is called, so
 * whatever the inbox does meanwhile it learned from the press alone (each report is retried later).
 */
async function holdReports(email: string): Promise<() => Promise<void>> {
  await runInDurableObject(inboxObject(email), (instance: InboxObject) => {
    Object.defineProperty(instance, "apply", {
      configurable: true,
      value: async () => {
        throw new Error("reports held by the test");
      },
    });
  });
  return () =>
    runInDurableObject(inboxObject(email), (instance: InboxObject) => {
      Reflect.deleteProperty(instance, "apply");
    });
}

async function edits(chatId: number) {
  return (await callsTo(chatId, "editMessageText")).filter((call) => call.status === 200);
}

describe("a press in one hop", { timeout: 60_000 }, () => {
  it("edits the message to the receipt before the webhook answers, with no alarm run, and only once", async () => {
    const ana = new Person("ana.onehop@example.com");
    const user = { id: 5601, first_name: "Ana" };
    await link(ana, user);
    const session = await openApproval(ana, "toolu_tg_one_hop");
    await sentTo(ana, user.id, "sendMessage", 2);
    const approve = buttonsOf(await lastCard(user.id)).Approve!;
    expect(await edits(user.id)).toEqual([]);
    const release = await holdReports(ana.email);

    expect((await sendUpdate(pressFrom(user, 1, approve))).status).toBe(200);
    // The inbox has not heard of the resolution from the session (its outbox still holds it), and
    // no alarm of the inbox was run: the edit came from the press itself.
    expect(await outboxSize(session)).toBeGreaterThan(0);
    const [edit] = await edits(user.id);
    expect(edit?.body.text).toBe("Approved by Ana · Telegram");
    expect(edit?.body.reply_markup).toEqual({ inline_keyboard: [] });
    expect(await receiptRows(ana.email)).toEqual([
      { status: "delivered", attempts: 1, next_at: null, last_error: null },
    ]);
    // Nothing else is said: the receipt is the answer.
    expect((await callsTo(user.id, "sendMessage")).filter((call) => !call.body.reply_markup)).toHaveLength(1);

    // The session's report arrives and the inbox's alarm runs: the message is not edited again.
    await release();
    await deliverOutbox(session);
    await runDurableObjectAlarm(inboxObject(ana.email));
    expect(await edits(user.id)).toHaveLength(1);
    expect(await receiptRows(ana.email)).toHaveLength(1);
  });

  it("leaves an edit the Bot API refused to the alarm, which retries it once", async () => {
    const bo = new Person("bo.onehop@example.com");
    const user = { id: 5611, first_name: "Bo" };
    await link(bo, user);
    const session = await openApproval(bo, "toolu_tg_one_hop_retry");
    await sentTo(bo, user.id, "sendMessage", 2);
    const deny = buttonsOf(await lastCard(user.id)).Deny!;
    await failNext("editMessageText", user.id, [500]);

    expect((await sendUpdate(pressFrom(user, 1, deny))).status).toBe(200);
    expect((await callsTo(user.id, "editMessageText")).map((call) => call.status)).toEqual([500]);
    const [waiting] = await receiptRows(bo.email);
    expect(waiting).toMatchObject({ status: "pending", attempts: 1 });
    expect(waiting?.next_at).toBeGreaterThan(Date.now());

    // The session's report changes nothing of the row; the retry's time comes and the alarm edits.
    await deliverOutbox(session);
    await runInDurableObject(inboxObject(bo.email), (_, state) => {
      state.storage.sql.exec(`UPDATE chat_deliveries SET next_at = 0 WHERE status = 'pending'`);
    });
    await runDurableObjectAlarm(inboxObject(bo.email));
    const sent = await edits(user.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body.text).toBe("Denied by Bo · Telegram");
    expect(await receiptRows(bo.email)).toEqual([
      { status: "delivered", attempts: 2, next_at: null, last_error: null },
    ]);
  });
});
