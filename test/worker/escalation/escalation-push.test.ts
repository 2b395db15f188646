// A rung to "me" with push: every device subscribed to the person's inbox gets a "Still waiting"
// notification for the card, after the one its opening sent; the push service is a recorded peer.
// Both are sent as soon as the inbox's step that stored them is done, not on the inbox's alarm: the
// inbox's clock runs an hour ahead of the platform's, so its alarm (set by the platform's time)
// cannot be what sends, and no test here runs it.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PushMessage } from "../../../src/notify/push-sender";
import type { DeliveryView } from "../../../src/protocol/reach/notify";
import { advanceClock, stubOf } from "../../helpers/session-object-probe";
import { deliverOutbox, moveInboxClock, Person } from "../inbox/inbox-fixtures";
import { browserKeys, decryptPush, pushHost, sentTo } from "../notify/notify-fixtures";

type External = { sessionId: string; agentToken: string; token: string };

const HOUR = 3_600_000;

async function pushRows(person: Person): Promise<DeliveryView[]> {
  const response = await person.api("GET", "/api/inbox/deliveries");
  const { deliveries } = (await response.json()) as { deliveries: DeliveryView[] };
  return deliveries.filter((row) => row.channel === "push").reverse();
}

describe("an escalation by push", () => {
  it("notifies each of the person's subscribed devices that the card still waits, without the inbox's alarm", async () => {
    const ana = new Person("ana.escalation.push@example.com");
    const host = pushHost();
    const keys = await browserKeys();
    const subscribed = await ana.api("POST", "/api/inbox/push-subscriptions", {
      body: {
        deviceId: "phone",
        subscription: { endpoint: `https://${host}/send/inbox`, expirationTime: null, keys: keys.json },
      },
    });
    expect(subscribed.status).toBe(201);
    const now = await moveInboxClock(ana, { by: HOUR });
    const created = await ana.api("POST", "/api/sessions", {
      body: {
        agent: { kind: "external", name: "Claude Code" },
        deadlinePolicies: { default: { escalate: [{ afterMs: 120_000, notify: ["push"], to: "me" }] } },
      },
    });
    const session = (await created.json()) as External;
    const opened = await ana.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
      token: session.agentToken,
      body: {
        kind: "question",
        timeoutMs: 600_000,
        request: {
          questions: [
            {
              question: "Which region?",
              header: "Region",
              multiSelect: false,
              options: [
                { label: "EU", description: "" },
                { label: "US", description: "" },
              ],
            },
          ],
        },
      },
    });
    expect(opened.status, await opened.clone().text()).toBe(201);
    await deliverOutbox(session);
    await expect.poll(async () => (await sentTo(host)).length).toBe(1);

    // The rung fires on the session's alarm; its report is the inbox's step that stores the push.
    await advanceClock(stubOf(session), { by: 120_000 });
    await runDurableObjectAlarm(stubOf(session));
    await deliverOutbox(session);
    await expect.poll(async () => (await sentTo(host)).length).toBe(2);
    const notices = await Promise.all(
      (await sentTo(host)).map(async (r) => (await decryptPush(r.body, keys)) as PushMessage),
    );
    expect(notices.map((notice) => notice.change)).toEqual(["opened", "reminder"]);
    expect(notices[1]?.title).toMatch(/^Still waiting: /);
    await expect
      .poll(async () => (await pushRows(ana)).map((row) => [row.change, row.status, row.attempts]))
      .toEqual([
        ["opened", "delivered", 1],
        ["reminder", "delivered", 1],
      ]);
    // Stored at the inbox's time, an hour past the platform's: its alarm could not have fired.
    expect((await pushRows(ana))[1]?.createdAt).toBeGreaterThanOrEqual(now);
  });
});
