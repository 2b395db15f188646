// A rung to "me" with push: every device subscribed to the person's inbox gets a "Still waiting"
// notification for the card, after the one its opening sent; the push service is a recorded peer.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PushMessage } from "../../../src/notify/push-sender";
import { advanceClock, stubOf } from "../../helpers/session-object-probe";
import { deliverOutbox, inboxObject, Person } from "../inbox/inbox-fixtures";
import { browserKeys, decryptPush, pushHost, sentTo } from "../notify/notify-fixtures";

type External = { sessionId: string; agentToken: string; token: string };

async function pushesTo(person: Person, host: string, count: number) {
  await expect
    .poll(async () => {
      await runDurableObjectAlarm(inboxObject(person.email));
      return (await sentTo(host)).length;
    })
    .toBeGreaterThanOrEqual(count);
  return sentTo(host);
}

describe("an escalation by push", () => {
  it("notifies each of the person's subscribed devices that the card still waits", async () => {
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
    await pushesTo(ana, host, 1);

    await advanceClock(stubOf(session), { by: 120_000 });
    await runDurableObjectAlarm(stubOf(session));
    await deliverOutbox(session);
    const sent = await pushesTo(ana, host, 2);
    const notices = await Promise.all(
      sent.map(async (r) => (await decryptPush(r.body, keys)) as PushMessage),
    );
    expect(notices.map((notice) => notice.change)).toEqual(["opened", "reminder"]);
    expect(notices[1]?.title).toMatch(/^Still waiting: /);
  });
});
