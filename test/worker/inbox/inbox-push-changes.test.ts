// A card the inbox pushed once is not pushed again when its terms change: "More time" and one
// counted approval of a two-person card move the inbox's copy of the card (its deadline, "1 of 2")
// and notify no device as if the card had opened again. The push service is recorded at the edge.
import { describe, expect, it } from "vitest";
import type { DeliveryView } from "../../../src/protocol";
import { textReply } from "../../helpers/session-harness";
import { browserKeys, pushHost, sentTo } from "../notify/notify-fixtures";
import { ask, deliverOutbox, Person } from "./inbox-fixtures";

async function subscribePhone(person: Person): Promise<string> {
  const host = pushHost();
  const keys = await browserKeys();
  const subscribed = await person.api("POST", "/api/inbox/push-subscriptions", {
    body: {
      deviceId: "phone",
      subscription: { endpoint: `https://${host}/send/inbox`, expirationTime: null, keys: keys.json },
    },
  });
  expect(subscribed.status).toBe(201);
  return host;
}

/** The inbox's delivery log once nothing in it is pending, and what reached the push service. */
async function settled(person: Person, host: string) {
  // No alarm runs: the inbox sends its rows at once (the alarm is only their retry).
  await expect
    .poll(
      async () => {
        const log = await person.api("GET", "/api/inbox/deliveries");
        const { deliveries } = (await log.json()) as { deliveries: DeliveryView[] };
        return deliveries.every((delivery) => delivery.status !== "pending");
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  const log = await person.api("GET", "/api/inbox/deliveries");
  const { deliveries } = (await log.json()) as { deliveries: DeliveryView[] };
  return { deliveries, sent: await sentTo(host) };
}

describe("a card's changes on the person's devices", () => {
  it("moves the inbox's card on More time without pushing the card again as opened", async () => {
    const alice = new Person("alice.push-more@example.com");
    const host = await subscribePhone(alice);
    const session = await alice.createSession({
      interactionTimeoutMs: 60_000,
      deadlinePolicies: { default: { extendByMs: 30_000, maxWaitMs: 100_000 } },
      script: [ask("toolu_push_more"), textReply("Noted.")],
    });
    const laptop = await alice.connect(session);
    await laptop.request({ type: "send_message", text: "Set it up" });
    const prompt = await laptop.waitForEvent("question_prompt");
    await deliverOutbox(session);
    const opened = await settled(alice, host);
    expect(opened.deliveries.map((d) => [d.change, d.interactionId])).toEqual([
      ["opened", "toolu_push_more"],
    ]);
    expect(opened.sent).toHaveLength(1);

    const extended = await alice.api("POST", `/api/inbox/cards/${session.sessionId}/toolu_push_more/extend`);
    expect(extended.status, await extended.clone().text()).toBe(200);
    await laptop.waitForEvent("interaction_extended");
    await deliverOutbox(session);

    expect((await alice.inbox()).cards).toMatchObject([
      { interactionId: "toolu_push_more", expiresAt: prompt.data.expiresAt + 30_000 },
    ]);
    const after = await settled(alice, host);
    expect(after.deliveries.map((d) => [d.change, d.interactionId])).toEqual([["opened", "toolu_push_more"]]);
    expect(after.sent).toHaveLength(1);
    laptop.close();
  });

  it("counts one approval of a two-person card in the inbox without pushing the card again as opened", async () => {
    const ana = new Person("ana.push-counted@example.com");
    const host = await subscribePhone(ana);
    const created = await ana.api("POST", "/api/sessions", {
      body: { agent: { kind: "external", name: "Claude Code" } },
    });
    const session = (await created.json()) as { sessionId: string; token: string; agentToken: string };
    const card = await ana.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
      token: session.agentToken,
      body: { kind: "approval", request: { toolName: "Bash", input: { command: "git push origin main" } } },
    });
    expect(card.status).toBe(201);
    const { interactionId } = (await card.json()) as { interactionId: string };
    await deliverOutbox(session);
    const opened = await settled(ana, host);
    expect(opened.deliveries.map((d) => d.change)).toEqual(["opened"]);
    expect(opened.sent).toHaveLength(1);

    const approved = await ana.api("POST", `/api/sessions/${session.sessionId}/respond`, {
      token: session.token,
      body: { interactionId, response: { decision: "approve" } },
    });
    expect(approved.status).toBe(200);
    await deliverOutbox(session);

    expect((await ana.inbox()).cards).toMatchObject([
      { interactionId, approvals: { needed: 2, given: 1, by: [ana.email] } },
    ]);
    const after = await settled(ana, host);
    expect(after.deliveries.map((d) => d.change)).toEqual(["opened"]);
    expect(after.sent).toHaveLength(1);
  });
});
