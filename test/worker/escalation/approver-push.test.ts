// A rung to "approvers" with push: an approver subscribes their own device from their answering
// page, held by them in the inviter's inbox, and a card's ladder pushes "Still waiting" to it when
// the card is within their scope; nothing else of the inviter's reaches it, and removing the
// approver removes it at once. The push service is a recorded peer whose keys the test holds. Each
// push is sent as soon as the inbox's step that stored it is done: the inbox's clock runs an hour
// ahead of the platform's, so its alarm (set by the platform's time) cannot be what sends.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PushMessage } from "../../../src/notify/push-sender";
import type { DeliveryView } from "../../../src/protocol/reach/notify";
import { ORIGIN } from "../../helpers/session-harness";
import { advanceClock, stubOf } from "../../helpers/session-object-probe";
import { deliverOutbox, moveInboxClock, Person } from "../inbox/inbox-fixtures";
import { type BrowserKeys, browserKeys, decryptPush, pushHost, sentTo } from "../notify/notify-fixtures";
import { call, inviteAndRedeem } from "../people/people-fixtures";

type External = { sessionId: string; agentToken: string; token: string };
type Rung = { afterMs: number; notify: string[]; to: "me" | "approvers" };

const HOUR = 3_600_000;

/** A device's subscription body for a push service host of its own. */
const device = (deviceId: string, host: string, keys: BrowserKeys) => ({
  deviceId,
  subscription: { endpoint: `https://${host}/send/${deviceId}`, expirationTime: null, keys: keys.json },
});

/** `…/answering/:inviter/push-subscriptions[/…]` as `who` (signed in through Access). */
async function devices(who: Person, inviter: Person, method: string, rest = "", body?: unknown) {
  const path = `/api/people/answering/${encodeURIComponent(inviter.email)}/push-subscriptions${rest}`;
  return call(method, path, await who.headers(), body);
}

/** Ana, and Bo whom she invited with `scope`; Bo's phone subscribed from his answering page. */
async function anaAndBo(tag: string, scope: Record<string, unknown> = { scope: "all" }) {
  const ana = new Person(`ana.${tag}@example.com`);
  const bo = new Person(`bo.${tag}@example.com`);
  await inviteAndRedeem(await ana.headers(), await bo.headers(), { name: "Bo", email: bo.email, ...scope });
  const host = pushHost();
  const keys = await browserKeys();
  const subscribed = await devices(bo, ana, "POST", "", device("bo-phone", host, keys));
  expect(subscribed.status, await subscribed.clone().text()).toBe(201);
  expect(await subscribed.json()).toEqual({ deviceIds: ["bo-phone"] });
  await moveInboxClock(ana, { by: HOUR });
  return { ana, bo, host, keys };
}

/** Opens an approval of `command` in a new session of `person` with `ladder`, and climbs `climb` ms of it. */
async function climbed(person: Person, command: string, ladder: Rung[], climb: number) {
  const created = await person.api("POST", "/api/sessions", {
    body: {
      agent: { kind: "external", name: "Claude Code" },
      deadlinePolicies: { default: { escalate: ladder } },
    },
  });
  const session = (await created.json()) as External;
  const opened = await person.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
    token: session.agentToken,
    body: { kind: "approval", timeoutMs: 600_000, request: { toolName: "Bash", input: { command } } },
  });
  expect(opened.status, await opened.clone().text()).toBe(201);
  const { interactionId } = (await opened.json()) as { interactionId: string };
  await deliverOutbox(session);
  let at = 0;
  for (const rung of ladder.filter((one) => one.afterMs <= climb)) {
    await advanceClock(stubOf(session), { by: rung.afterMs - at });
    at = rung.afterMs;
    await runDurableObjectAlarm(stubOf(session));
    await deliverOutbox(session);
  }
  return { session, interactionId };
}

/** The inbox's push rows, oldest first. */
async function pushRows(person: Person): Promise<DeliveryView[]> {
  const response = await person.api("GET", "/api/inbox/deliveries");
  const { deliveries } = (await response.json()) as { deliveries: DeliveryView[] };
  return deliveries.filter((row) => row.channel === "push").reverse();
}

/** What `host` was sent, decrypted with the device's keys, once `count` arrived. */
async function received(host: string, keys: BrowserKeys, count: number) {
  await expect.poll(async () => (await sentTo(host)).length).toBe(count);
  return Promise.all((await sentTo(host)).map(async (r) => (await decryptPush(r.body, keys)) as PushMessage));
}

const TO_APPROVERS: Rung = { afterMs: 120_000, notify: ["push"], to: "approvers" };

describe("an escalation pushed to approvers", () => {
  it("tells the approver's device the card still waits, opening their own page, with no actions nor badge", async () => {
    const { ana, bo, host, keys } = await anaAndBo("push.rung");
    const anaHost = pushHost();
    const anaKeys = await browserKeys();
    const own = await ana.api("POST", "/api/inbox/push-subscriptions", {
      body: device("ana-phone", anaHost, anaKeys),
    });
    expect(own.status).toBe(201);
    const ladder: Rung[] = [TO_APPROVERS, { afterMs: 240_000, notify: ["push"], to: "me" }];

    const { interactionId } = await climbed(ana, "make release", ladder, 120_000);
    const [notice] = await received(host, keys, 1);
    expect(notice).toMatchObject({ change: "reminder", interactionId });
    expect(notice?.title).toMatch(/^Still waiting: /);
    expect(notice?.body).toMatch(/^Runs make, /);
    // Tapped, it opens Bo's answering page at the card: never Ana's inbox, never with her credential.
    expect(notice?.url).toBe(
      `${ORIGIN}/#/inbox?answering=${encodeURIComponent(ana.email)}&card=${encodeURIComponent(interactionId)}`,
    );
    expect(notice).not.toHaveProperty("answerToken");
    expect(notice).not.toHaveProperty("actions");
    expect(notice).not.toHaveProperty("badge");
    // Ana's phone was told the card opened; the rung to approvers is not hers.
    const rows = await pushRows(ana);
    expect(rows.map((row) => [row.target, row.change])).toEqual([
      ["ana-phone", "opened"],
      [`approver:${bo.email}:bo-phone`, "reminder"],
    ]);
  });

  it("gives a rung to me to the person's devices only, and the person's card pushes never to an approver", async () => {
    const { ana, host } = await anaAndBo("push.me");
    const anaHost = pushHost();
    const anaKeys = await browserKeys();
    await ana.api("POST", "/api/inbox/push-subscriptions", { body: device("ana-phone", anaHost, anaKeys) });
    const ladder: Rung[] = [{ afterMs: 120_000, notify: ["push"], to: "me" }];
    await climbed(ana, "make release", ladder, 120_000);
    const notices = await received(anaHost, anaKeys, 2);
    expect(notices.map((notice) => notice.change).sort()).toEqual(["opened", "reminder"]);
    expect((await pushRows(ana)).every((row) => row.target === "ana-phone")).toBe(true);
    expect(await sentTo(host)).toEqual([]);
  });

  it("reaches only the approvers whose scope covers the card", async () => {
    const { ana, bo, host, keys } = await anaAndBo("push.scoped");
    const cy = new Person("cy.push.scoped@example.com");
    await inviteAndRedeem(await ana.headers(), await cy.headers(), {
      name: "Cy",
      email: cy.email,
      scope: "rule",
      rule: "Bash(git push:*)",
    });
    const cyHost = pushHost();
    const cyKeys = await browserKeys();
    expect((await devices(cy, ana, "POST", "", device("cy-phone", cyHost, cyKeys))).status).toBe(201);

    await climbed(ana, "make release", [TO_APPROVERS], 120_000);
    await received(host, keys, 1);
    expect((await pushRows(ana)).map((row) => row.target)).toEqual([`approver:${bo.email}:bo-phone`]);
    expect(await sentTo(cyHost)).toEqual([]);

    await climbed(ana, "git push origin main", [TO_APPROVERS], 120_000);
    const [notice] = await received(cyHost, cyKeys, 1);
    expect(notice?.body).toMatch(/^Pushes commits to origin /);
  });

  it("pushes nothing more to a removed approver, whose devices go at once and who can subscribe no more", async () => {
    const { ana, bo, host, keys } = await anaAndBo("push.removed");
    expect((await ana.api("DELETE", `/api/people/${encodeURIComponent(bo.email)}`)).status).toBe(200);
    await climbed(ana, "make release", [TO_APPROVERS], 120_000);
    expect(await pushRows(ana)).toEqual([]);
    expect(await sentTo(host)).toEqual([]);
    const again = await devices(bo, ana, "POST", "", device("bo-phone", host, keys));
    expect(again.status).toBe(403);
    expect(await again.text()).toContain("no longer an approver");
    expect((await devices(bo, ana, "GET")).status).toBe(403);
    // Invited again, Bo starts with no device: the ones he had went with his removal.
    await inviteAndRedeem(await ana.headers(), await bo.headers(), {
      name: "Bo",
      email: bo.email,
      scope: "all",
    });
    expect(await (await devices(bo, ana, "GET")).json()).toEqual({ deviceIds: [] });
  });
});

describe("an approver's devices", () => {
  it("are theirs alone: neither the approver nor the person lists or removes the other's", async () => {
    const { ana, bo, host, keys } = await anaAndBo("push.apart");
    // The same device id on Ana's own inbox: two subscriptions, one each.
    const anaSubscribed = await ana.api("POST", "/api/inbox/push-subscriptions", {
      body: device("bo-phone", pushHost(), await browserKeys()),
    });
    expect(anaSubscribed.status).toBe(201);
    await ana.api("POST", "/api/inbox/push-subscriptions", { body: device("ana-phone", pushHost(), keys) });
    expect(await (await devices(bo, ana, "GET")).json()).toEqual({ deviceIds: ["bo-phone"] });

    // Bo removing Ana's phone removes nothing of hers.
    const removed = await devices(bo, ana, "DELETE", "/ana-phone");
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ deviceIds: ["bo-phone"] });
    // Ana's own route cannot reach Bo's: her device id is her own, and his held key is no device id.
    const hers = await ana.api("DELETE", "/api/inbox/push-subscriptions/bo-phone");
    expect(await hers.json()).toEqual({ removed: true });
    const key = encodeURIComponent(`approver:${bo.email}:bo-phone`);
    expect((await ana.api("DELETE", `/api/inbox/push-subscriptions/${key}`)).status).toBe(400);
    expect(await (await devices(bo, ana, "GET")).json()).toEqual({ deviceIds: ["bo-phone"] });

    // Ana is no approver of her own: she cannot subscribe as one.
    const asAna = await devices(ana, ana, "POST", "", device("ana-tablet", host, keys));
    expect(asAna.status).toBe(403);
    const bosOwn = await devices(bo, ana, "DELETE", "/bo-phone");
    expect(await bosOwn.json()).toEqual({ deviceIds: [] });
  });

  it("cannot be subscribed with an inbox link or an agent key", async () => {
    const { ana, bo, host, keys } = await anaAndBo("push.credentials");
    const path = `/api/people/answering/${encodeURIComponent(ana.email)}/push-subscriptions`;
    const body = device("bo-laptop", host, keys);
    const link = await bo.api("POST", "/api/inbox/links", { body: { role: "answer", label: "phone" } });
    expect(link.status, await link.clone().text()).toBe(201);
    const { token } = (await link.json()) as { token: string };
    const agentKey = await bo.api("POST", "/api/agent-keys", { body: { label: "laptop" } });
    expect(agentKey.status, await agentKey.clone().text()).toBe(201);
    const { key } = (await agentKey.json()) as { key: string };
    for (const [credential, status] of [
      [token, 401],
      [key, 403],
    ] as const) {
      const refused = await call("POST", path, { authorization: `Bearer ${credential}` }, body);
      expect(refused.status, await refused.clone().text()).toBe(status);
    }
    expect(await (await devices(bo, ana, "GET")).json()).toEqual({ deviceIds: ["bo-phone"] });
  });

  it("refuses bad bodies precisely, and a sixth device", async () => {
    const { ana, bo, host, keys } = await anaAndBo("push.bad");
    const refusal = async (body: unknown, rest = "", method = "POST") => {
      const response = await devices(bo, ana, method, rest, body);
      expect(response.status).toBe(400);
      return ((await response.json()) as { error: { code: string; message: string } }).error;
    };
    expect(await refusal({ deviceId: "bo-tablet" })).toMatchObject({
      code: "invalid_input",
      message: expect.stringContaining("subscription"),
    });
    expect((await refusal({ ...device("bo tablet", host, keys) })).message).toContain("deviceId");
    const elsewhere = device("bo-tablet", host, keys);
    elsewhere.subscription.endpoint = "https://push.attacker.example/send";
    expect((await refusal(elsewhere)).message).toMatch(/^subscription\.endpoint: /);
    expect((await refusal({ ...device("bo-tablet", host, keys), extra: 1 })).code).toBe("invalid_input");
    expect((await refusal(undefined, "/bo%20phone", "DELETE")).message).toContain("deviceId");
    for (const n of [2, 3, 4, 5]) {
      expect((await devices(bo, ana, "POST", "", device(`bo-${n}`, host, keys))).status).toBe(201);
    }
    expect((await refusal(device("bo-6", host, keys))).message).toBe(
      "An approver may subscribe at most 5 devices",
    );
    // A device already held is subscribed again, not counted twice.
    expect((await devices(bo, ana, "POST", "", device("bo-5", host, keys))).status).toBe(201);
  });
});
