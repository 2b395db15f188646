// A Telegram account has one link at a time: linked again (to the same person or another) or
// unlinked, its link before gets nothing more from any inbox — not what was queued, not what an
// inbox that never heard of the end still holds.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { InboxObject } from "../../../../src/inbox/inbox-object";
import { runInDurableObject } from "../../../helpers/run-in-object";
import { inboxObject, Person } from "../../inbox/inbox-fixtures";
import { openApproval } from "../chat-fixtures";
import { callsTo, failNext, link, sentTo, type TelegramUser } from "./telegram-fixtures";

async function cardsTo(user: TelegramUser): Promise<number> {
  return (await callsTo(user.id, "sendMessage")).filter((call) => call.body.reply_markup).length;
}

/** The links the person's inbox sends cards to. */
function inboxLinks(person: Person) {
  return runInDurableObject(inboxObject(person.email), (_, state) =>
    state.storage.sql
      .exec<{ link_id: string; account_id: string }>(`SELECT link_id, account_id FROM chat_links`)
      .toArray(),
  );
}

async function listedLinks(person: Person): Promise<{ linkId: string; accountId: string }[]> {
  const listed = await person.api("GET", "/api/channels/links");
  return ((await listed.json()) as { links: { linkId: string; accountId: string }[] }).links;
}

/** Runs the inbox's alarm with its clock past every retry of a chat row that is due by then. */
async function runInboxAlarmLater(person: Person, ms: number): Promise<void> {
  await runInDurableObject<InboxObject, void>(inboxObject(person.email), (instance) =>
    instance.clock.advance(ms),
  );
  await runDurableObjectAlarm(inboxObject(person.email));
}

describe("a Telegram account's link", { timeout: 60_000 }, () => {
  it("Link the same account twice, unlink: no delivery", async () => {
    const kim = new Person("kim.twice@example.com");
    const user = { id: 9101, first_name: "Kim" };
    await link(kim, user);
    await link(kim, user);
    // One link, listed and sent to: the first ended when the second was made.
    const listed = await listedLinks(kim);
    expect(listed).toHaveLength(1);
    expect(await inboxLinks(kim)).toEqual([{ link_id: listed[0]?.linkId, account_id: String(user.id) }]);

    expect((await kim.api("DELETE", `/api/channels/links/${listed[0]?.linkId}`)).status).toBe(200);
    expect(await inboxLinks(kim)).toEqual([]);
    await openApproval(kim, "toolu_relink_twice");
    await runInboxAlarmLater(kim, 0);
    expect(await cardsTo(user)).toBe(0);
  });

  it("moves an account from one person to another: the first's inbox drops it and sends it nothing more", async () => {
    const lea = new Person("lea.first@example.com");
    const max = new Person("max.second@example.com");
    const user = { id: 9201, first_name: "Lea" };
    await link(lea, user);
    await openApproval(lea, "toolu_relink_lea_before");
    await sentTo(lea, user.id, "sendMessage", 2);
    expect(await cardsTo(user)).toBe(1);

    await link(max, user);
    // The chat names the person it joined now.
    expect((await callsTo(user.id, "sendMessage")).at(-1)?.body.text).toContain(
      "Linked to Parley as max.second@example.com",
    );
    expect(await listedLinks(lea)).toEqual([]);
    expect(await inboxLinks(lea)).toEqual([]);
    expect(await listedLinks(max)).toHaveLength(1);

    await openApproval(lea, "toolu_relink_lea_after");
    await runInboxAlarmLater(lea, 0);
    expect(await cardsTo(user)).toBe(1);
    // The account gets the new person's cards.
    await openApproval(max, "toolu_relink_max");
    await sentTo(max, user.id, "sendMessage", 4);
    expect(await cardsTo(user)).toBe(2);
  });

  it("does not send a card queued for an account that was unlinked before its retry", async () => {
    const ned = new Person("ned.queued@example.com");
    const user = { id: 9301, first_name: "Ned" };
    await link(ned, user);
    // The first try fails as a server error does: the card waits for its retry, in flight.
    await failNext("sendMessage", user.id, [500]);
    await openApproval(ned, "toolu_relink_queued");
    await runDurableObjectAlarm(inboxObject(ned.email));
    const log = (await (await ned.api("GET", "/api/inbox/deliveries")).json()) as {
      deliveries: { channel: string; status: string; attempts: number; lastError: string | null }[];
    };
    expect(log.deliveries.find((d) => d.channel === "telegram")).toMatchObject({
      status: "pending",
      attempts: 1,
    });

    // The refused try was made (and recorded by Telegram's stand-in); nothing is tried after.
    const tried = await cardsTo(user);
    const [listed] = await listedLinks(ned);
    expect((await ned.api("DELETE", `/api/channels/links/${listed?.linkId}`)).status).toBe(200);
    await runInboxAlarmLater(ned, 60 * 60_000);
    expect(await cardsTo(user)).toBe(tried);
    const after = (await (await ned.api("GET", "/api/inbox/deliveries")).json()) as typeof log;
    expect(after.deliveries.find((d) => d.channel === "telegram")).toMatchObject({
      status: "failed",
      lastError: "unlinked",
    });
  });

  it("sends nothing to a link its inbox still holds after the account moved on, and drops it", async () => {
    const ola = new Person("ola.stale@example.com");
    const pia = new Person("pia.next@example.com");
    const user = { id: 9401, first_name: "Ola" };
    await link(ola, user);
    const [before] = await inboxLinks(ola);
    await link(pia, user);
    // The end of Ola's link is put back as if it had never reached her inbox: the inbox must ask
    // who the account belongs to before it sends.
    await runInDurableObject(inboxObject(ola.email), (_, state) => {
      state.storage.sql.exec(
        `INSERT INTO chat_links (link_id, platform, account_id, name, thread_id, origin)
         VALUES (?, 'telegram', ?, 'Ola', ?, 'https://parley.test')`,
        before?.link_id,
        String(user.id),
        String(user.id),
      );
    });
    expect(await inboxLinks(ola)).toHaveLength(1);

    await openApproval(ola, "toolu_relink_stale");
    await runInboxAlarmLater(ola, 0);
    expect(await cardsTo(user)).toBe(0);
    expect(await inboxLinks(ola)).toEqual([]);
  });
});
