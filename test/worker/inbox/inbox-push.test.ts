// "Notify this device" on the inbox: a device subscribes once for every session of the person, and
// the inbox pushes each card that opens once (not once per session), on its own alarm; the push
// service is a recorded peer at the network's edge.
import { runDurableObjectAlarm } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PushMessage } from "../../../src/notify/push-sender";
import type { DeliveryView, MintedInboxLink } from "../../../src/protocol";
import { runInDurableObject } from "../../helpers/run-in-object";
import { ORIGIN, textReply } from "../../helpers/session-harness";
import { browserKeys, decryptPush, pushHost, sentTo } from "../notify/notify-fixtures";
import { ask, deliverOutbox, inboxObject, Person } from "./inbox-fixtures";

async function openCard(person: Person, id: string, text: string) {
  const session = await person.createSession({ script: [ask(id), textReply("Thanks.")] });
  const device = await person.connect(session);
  await device.request({ type: "send_message", text });
  await device.waitForEvent("question_prompt");
  await deliverOutbox(session);
  device.close();
  return session;
}

function subscription(host: string, keys: { p256dh: string; auth: string }) {
  return { endpoint: `https://${host}/send/inbox`, expirationTime: null, keys };
}

/**
 * The pushes that reached `host` once there are `count`. No alarm runs: the session hands its card to
 * the inbox at once and the inbox pushes it at once (the alarm is only their retry), though the push
 * may still be on its way (loading the push library first) when the test first looks.
 */
async function pushesTo(host: string, count: number) {
  await expect
    .poll(async () => (await sentTo(host)).length, { timeout: 10_000 })
    .toBeGreaterThanOrEqual(count);
  return sentTo(host);
}

describe("inbox push", () => {
  it("pushes one notice per card opened in any of the person's sessions to a device that subscribed once", async () => {
    const alice = new Person("alice.push@example.com");
    const host = pushHost();
    const keys = await browserKeys();
    const subscribed = await alice.api("POST", "/api/inbox/push-subscriptions", {
      body: { deviceId: "phone", subscription: subscription(host, keys.json) },
    });
    expect(subscribed.status).toBe(201);

    const first = await openCard(alice, "toolu_push_one", "First job");
    const second = await openCard(alice, "toolu_push_two", "Second job");
    const sent = await pushesTo(host, 2);
    // Running the alarm again, or redelivering an outbox, sends nothing twice.
    await deliverOutbox(first);
    await runDurableObjectAlarm(inboxObject(alice.email));
    expect(await sentTo(host)).toHaveLength(2);

    const notices = await Promise.all(
      sent.map(async (r) => (await decryptPush(r.body, keys)) as PushMessage),
    );
    expect(notices.map((n) => [n.sessionId, n.interactionId]).sort()).toEqual(
      [
        [first.sessionId, "toolu_push_one"],
        [second.sessionId, "toolu_push_two"],
      ].sort(),
    );
    expect(notices.map((n) => n.change)).toEqual(["opened", "opened"]);
    expect(notices[0]?.url).toMatch(new RegExp(`^${ORIGIN}/#/inbox\\?from=push&card=toolu_push_`));
    const log = await alice.api("GET", "/api/inbox/deliveries");
    const { deliveries } = (await log.json()) as { deliveries: DeliveryView[] };
    expect(deliveries.map((d) => [d.channel, d.target, d.status])).toEqual([
      ["push", "phone", "delivered"],
      ["push", "phone", "delivered"],
    ]);
  });

  it("stops pushing to a device subscribed through an inbox link once the link is revoked", async () => {
    const bob = new Person("bob.push@example.com");
    const minted = await bob.api("POST", "/api/inbox/links", { body: { role: "view", label: "Phone" } });
    const link = (await minted.json()) as MintedInboxLink;
    const host = pushHost();
    const keys = await browserKeys();
    const subscribed = await exports.default.fetch(`${ORIGIN}/api/inbox/push-subscriptions`, {
      method: "POST",
      headers: { authorization: `Bearer ${link.token}`, "content-type": "application/json" },
      body: JSON.stringify({ deviceId: "phone", subscription: subscription(host, keys.json) }),
    });
    expect(subscribed.status).toBe(201);
    expect((await bob.api("DELETE", `/api/inbox/links/${link.linkId}`)).status).toBe(200);

    await openCard(bob, "toolu_after_revoke", "Late job");
    await runDurableObjectAlarm(inboxObject(bob.email));
    expect(await sentTo(host)).toEqual([]);
  });

  it("refuses an endpoint outside the known push services with a 400 naming it, as a session does, storing nothing", async () => {
    const dana = new Person("dana.push@example.com");
    const keys = await browserKeys();
    for (const endpoint of ["https://attacker.example/collect", "https://169.254.169.254/latest/meta-data"]) {
      const refused = await dana.api("POST", "/api/inbox/push-subscriptions", {
        body: { deviceId: "phone", subscription: { endpoint, expirationTime: null, keys: keys.json } },
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        error: {
          code: "invalid_input",
          message: expect.stringMatching(/^subscription\.endpoint: .*not a known push service/),
        },
      });
    }
    const stored = await runInDurableObject(inboxObject(dana.email), (_instance, state) =>
      state.storage.sql.exec(`SELECT COUNT(*) AS n FROM push_subscriptions`).one(),
    );
    expect(stored).toEqual({ n: 0 });
  });

  it("refuses a subscription without a device id, naming the field, and stores nothing", async () => {
    const carol = new Person("carol.push@example.com");
    const keys = await browserKeys();
    const refused = await carol.api("POST", "/api/inbox/push-subscriptions", {
      body: { subscription: subscription(pushHost(), keys.json) },
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: { code: "invalid_input", message: expect.stringContaining("deviceId") },
    });
    const log = await carol.api("GET", "/api/inbox/deliveries");
    expect(await log.json()).toEqual({ deliveries: [] });
  });
});
