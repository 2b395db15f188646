// An email is sent as soon as the inbox's step that stored it is done — a verification code its
// route stored, or an escalation's email a session's report stored — not on the inbox's alarm, which
// keeps the retries. The inbox's clock runs an hour ahead of the platform's, so its alarm (set by the
// platform's time) cannot be what sends.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { DeliveryView } from "../../../src/protocol";
import { inboxDeliveries, inboxObject, moveInboxClock, Person } from "../inbox/inbox-fixtures";
import { emailedCard, escalatedCard, verifiedAddress } from "./card-email-fixtures";
import { emailsTo, failNextEmails, SENT_WITHIN } from "./sent-emails";

const HOUR = 3_600_000;

/** The inbox's delivery log row for the newest email to `address`. */
async function emailRow(person: Person, address: string): Promise<DeliveryView | undefined> {
  return (await inboxDeliveries(person)).find((row) => row.channel === "email" && row.target === address);
}

async function requestCode(person: Person, address: string): Promise<void> {
  const added = await person.api("POST", "/api/people/me/emails", { body: { address } });
  expect(added.status, await added.clone().text()).toBe(201);
}

describe("an email's first attempt", () => {
  it("sends a verification code once its route stored it, without the inbox's alarm", async () => {
    const ana = new Person("ana.email.at-once@example.com");
    const address = "ana.at-once@mail.example";
    const now = await moveInboxClock(ana, { by: HOUR });
    await requestCode(ana, address);
    await expect.poll(async () => (await emailsTo(address)).length, SENT_WITHIN).toBe(1);
    expect((await emailsTo(address))[0]?.text).toMatch(/^Your code: \d{6}$/m);
    await expect
      .poll(() => emailRow(ana, address), SENT_WITHIN)
      .toMatchObject({ status: "delivered", attempts: 1 });
    // Stored at the inbox's time, an hour past the platform's: its alarm could not have fired.
    expect((await emailRow(ana, address))?.createdAt).toBeGreaterThanOrEqual(now);
  });

  it("sends an escalation's email once the inbox applied the rung, without the inbox's alarm", async () => {
    const bo = new Person("bo.email.at-once@example.com");
    const address = "bo.at-once@mail.example";
    await verifiedAddress(bo, address);
    const now = await moveInboxClock(bo, { by: HOUR });
    const { session, interactionId } = await escalatedCard(bo, "me", "make at-once");
    expect(await emailedCard(address)).toMatchObject({ sessionId: session.sessionId, interactionId });
    await expect
      .poll(() => emailRow(bo, address), SENT_WITHIN)
      .toMatchObject({
        change: "escalation",
        status: "delivered",
        attempts: 1,
      });
    expect((await emailRow(bo, address))?.createdAt).toBeGreaterThanOrEqual(now);
  });

  it("leaves an email the binding refused to the alarm, which sends it at the schedule's first retry", async () => {
    const cy = new Person("cy.email.at-once-retry@example.com");
    const address = "cy.at-once-retry@mail.example";
    await failNextEmails(address, [500]);
    const now = await moveInboxClock(cy, { by: HOUR });
    await requestCode(cy, address);
    // A row whose attempt is in flight is pending at one attempt too: its error tells them apart.
    await expect
      .poll(() => emailRow(cy, address), SENT_WITHIN)
      .toMatchObject({ status: "pending", attempts: 1, lastError: expect.stringContaining("(500)") });
    const row = await emailRow(cy, address);
    expect(row?.nextAt).toBeGreaterThanOrEqual(now + 5_000);
    expect(row?.nextAt).toBeLessThan(now + 30_000);
    expect(await emailsTo(address)).toHaveLength(1);

    await moveInboxClock(cy, { at: row?.nextAt ?? 0 });
    await runDurableObjectAlarm(inboxObject(cy.email));
    expect(await emailRow(cy, address)).toMatchObject({ status: "delivered", attempts: 2, lastError: null });
    // The same email, its code and all, handed over again.
    const [refused, sent] = await emailsTo(address);
    expect(sent).toEqual(refused);
  });
});
