// What the inbox keeps of cards sent to chat: a deleted session's rows keep no request text (its
// messages are edited to "Withdrawn"), and the rows of a resolved card go on the alarm once kept
// for their retention.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CHAT_ROW_RETENTION_MS } from "../../../../src/inbox/inbox-chat-retention";
import type { InboxObject } from "../../../../src/inbox/inbox-object";
import { runInDurableObject } from "../../../helpers/run-in-object";
import { deliverOutbox, inboxObject, Person } from "../../inbox/inbox-fixtures";
import { openApproval } from "../chat-fixtures";
import { buttonsOf, callsTo, lastCard, link, pressFrom, sendUpdate, sentTo } from "./telegram-fixtures";

/** Every chat delivery row of `person`'s inbox for `sessionId`, as stored. */
function rowsOf(person: Person, sessionId: string) {
  return runInDurableObject(inboxObject(person.email), (_, state) =>
    state.storage.sql
      .exec<Record<string, SqlStorageValue>>(`SELECT * FROM chat_deliveries WHERE session_id = ?`, sessionId)
      .toArray(),
  );
}

async function runInboxAlarmLater(person: Person, ms: number): Promise<void> {
  await runInDurableObject<InboxObject, void>(inboxObject(person.email), (instance) =>
    instance.clock.advance(ms),
  );
  await runDurableObjectAlarm(inboxObject(person.email));
}

describe("chat delivery rows over time", { timeout: 60_000 }, () => {
  it("keep no request text once their session is deleted, edit its message to Withdrawn, and go after their retention", async () => {
    const uma = new Person("uma.erase@example.com");
    const user = { id: 9801, first_name: "Uma" };
    await link(uma, user);
    const session = await openApproval(uma, "toolu_erase_chat");
    await sentTo(uma, user.id, "sendMessage", 2);
    const approve = buttonsOf(await lastCard(user.id)).Approve as string;
    // The card went out with its request: the row held it.
    expect(JSON.stringify(await rowsOf(uma, session.sessionId))).toContain("ship it");

    const deleted = await uma.api("DELETE", `/api/sessions/${session.sessionId}`, { token: session.token });
    expect(deleted.status).toBe(200);
    await expect
      .poll(async () => JSON.stringify(await rowsOf(uma, session.sessionId)))
      .not.toContain("ship it");
    const rows = await rowsOf(uma, session.sessionId);
    expect(JSON.stringify(rows)).not.toContain("notes_write");
    expect(JSON.stringify(rows)).not.toContain('"plan"');

    const [edit] = await sentTo(uma, user.id, "editMessageText", 1);
    expect(edit?.body.text).toBe("Withdrawn");
    // A press on the old message finds no card to answer.
    await sendUpdate(pressFrom(user, 1, approve));
    expect((await callsTo(user.id, "sendMessage")).at(-1)?.body.text).toContain("not for a card of yours");

    await runInboxAlarmLater(uma, CHAT_ROW_RETENTION_MS);
    expect(await rowsOf(uma, session.sessionId)).toEqual([]);
  });

  it("of a resolved card stay for late presses through their retention, then the alarm drops them", async () => {
    const vic = new Person("vic.prune@example.com");
    const user = { id: 9802, first_name: "Vic" };
    await link(vic, user);
    const session = await openApproval(vic, "toolu_prune_chat");
    await sentTo(vic, user.id, "sendMessage", 2);
    const approve = buttonsOf(await lastCard(user.id)).Approve as string;
    expect((await sendUpdate(pressFrom(user, 1, approve))).status).toBe(200);
    await deliverOutbox(session);
    await sentTo(vic, user.id, "editMessageText", 1);
    expect((await rowsOf(vic, session.sessionId)).map((row) => [row.change, row.status])).toEqual([
      ["opened", "delivered"],
      ["resolved", "delivered"],
    ]);

    await runInboxAlarmLater(vic, CHAT_ROW_RETENTION_MS / 2);
    expect(await rowsOf(vic, session.sessionId)).toHaveLength(2);
    // A late press still gets the card's receipt.
    await sendUpdate(pressFrom(user, 1, approve));
    expect((await callsTo(user.id, "sendMessage")).at(-1)?.body.text).toContain("Already decided");

    await runInboxAlarmLater(vic, CHAT_ROW_RETENTION_MS / 2);
    expect(await rowsOf(vic, session.sessionId)).toEqual([]);
  });
});
