import { runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { api, connect, createSession, type Device, textReply } from "../../helpers/session-harness";
import { sqlRows, stubOf } from "../../helpers/session-object-probe";
import { expectError, mintLink } from "../access/access-fixtures";
import { storageFingerprint } from "../session-api/channel-fixtures";
import {
  ASK,
  browserKeys,
  deliver,
  deliveryLog,
  openCard,
  pushHost,
  sentTo,
  subscribe,
} from "./notify-fixtures";

let devices: Device[] = [];
afterEach(() => {
  for (const device of devices) device.close();
  devices = [];
});

async function pushSession() {
  const created = await createSession({ script: [ASK, textReply("Postgres it is.")] });
  const device = await connect(created, { device: "laptop" });
  devices.push(device);
  return { session: created, device };
}

function unsubscribe(session: { sessionId: string }, token: string, deviceId: string): Promise<Response> {
  return api("DELETE", `/api/sessions/${session.sessionId}/push-subscriptions/${deviceId}`, { token });
}

async function subscribers(sessionId: string) {
  return sqlRows<{ device_id: string; link_id: string | null; endpoint: string }>(
    sessionId,
    `SELECT device_id, link_id, json_extract(subscription, '$.endpoint') AS endpoint
     FROM push_subscriptions ORDER BY device_id`,
  );
}

describe("who owns a push subscription", () => {
  it("ends the owner token's subscriptions when that token is rotated, keeping a share link's", async () => {
    const { session } = await pushSession();
    const keys = await browserKeys();
    const ownerHost = pushHost();
    const linkHost = pushHost();
    expect((await subscribe(session, "owner-phone", `https://${ownerHost}/o`, keys.json)).status).toBe(201);
    const answerer = await mintLink(session, { role: "answer" });
    const linked = await subscribe(
      { ...session, token: answerer.token },
      "tablet",
      `https://${linkHost}/l`,
      keys.json,
    );
    expect(linked.status).toBe(201);

    const rotated = await api("POST", `/api/sessions/${session.sessionId}/owner-token`, {
      token: session.token,
    });
    expect(rotated.status).toBe(201);
    const { token } = (await rotated.json()) as { token: string };
    expect((await subscribers(session.sessionId)).map((row) => row.device_id)).toEqual(["tablet"]);

    // A card opened after the rotation reaches the link's device, and nothing the retired token made.
    const laptop = await connect({ ...session, token }, { device: "laptop-2" });
    devices.push(laptop);
    await openCard(laptop);
    await deliver(session, async () => (await sentTo(linkHost)).length > 0, "the link's push");
    expect(await sentTo(ownerHost)).toEqual([]);
  });

  it("refuses a view link replacing or removing the owner's subscription with 403, changing nothing, and the owner's phone is still the one pushed", async () => {
    const { session, device } = await pushSession();
    const keys = await browserKeys();
    const host = pushHost();
    expect((await subscribe(session, "owner-phone", `https://${host}/owner`, keys.json)).status).toBe(201);
    const viewer = await mintLink(session, { role: "view" });
    // The link's first use is noted in its record (lastUsedAt); take the fingerprint after it.
    expect((await api("GET", `/api/sessions/${session.sessionId}`, { token: viewer.token })).status).toBe(
      200,
    );
    const before = await storageFingerprint(session.sessionId);

    const taken = await subscribe(
      { ...session, token: viewer.token },
      "owner-phone",
      `https://${host}/thief`,
      keys.json,
    );
    await expectError(taken.clone(), 403, "not_your_subscription");
    expect(((await taken.json()) as { error: { message: string } }).error.message).toBe(
      "Device owner-phone subscribed to push with another token; only that token or the session's owner may replace it",
    );
    await expectError(await unsubscribe(session, viewer.token, "owner-phone"), 403, "not_your_subscription");
    expect(await storageFingerprint(session.sessionId)).toBe(before);

    await openCard(device);
    await deliver(session, async () => (await sentTo(host)).length >= 1, "the owner's push");
    expect((await sentTo(host)).map((request) => new URL(request.url).pathname)).toEqual(["/owner"]);
  });

  it("refuses one share link touching another link's subscription, while each replaces and removes its own", async () => {
    const { session } = await pushSession();
    const keys = await browserKeys();
    const lent = await mintLink(session, { role: "answer", label: "lent phone" });
    const other = await mintLink(session, { role: "answer", label: "tablet" });
    const asLent = { ...session, token: lent.token };
    const asOther = { ...session, token: other.token };
    expect((await subscribe(asLent, "lent-phone", `https://${pushHost()}/a`, keys.json)).status).toBe(201);
    const tablet = `https://${pushHost()}/b`;
    expect((await subscribe(asOther, "tablet", tablet, keys.json)).status).toBe(201);
    const before = await storageFingerprint(session.sessionId);

    await expectError(
      await subscribe(asOther, "lent-phone", `https://${pushHost()}/c`, keys.json),
      403,
      "not_your_subscription",
    );
    await expectError(await unsubscribe(session, other.token, "lent-phone"), 403, "not_your_subscription");
    expect(await storageFingerprint(session.sessionId)).toBe(before);

    const renewed = `https://${pushHost()}/renewed`;
    expect((await subscribe(asLent, "lent-phone", renewed, keys.json)).status).toBe(201);
    expect(await subscribers(session.sessionId)).toEqual([
      { device_id: "lent-phone", link_id: lent.linkId, endpoint: renewed },
      { device_id: "tablet", link_id: other.linkId, endpoint: tablet },
    ]);
    const removed = await unsubscribe(session, lent.token, "lent-phone");
    expect(await removed.json()).toEqual({ ok: true, result: { removed: true } });
    expect((await subscribers(session.sessionId)).map((row) => row.device_id)).toEqual(["tablet"]);
  });

  it("lets the owner remove any device's subscription, and take over its device id", async () => {
    const { session } = await pushSession();
    const keys = await browserKeys();
    const viewer = await mintLink(session, { role: "view" });
    const asViewer = { ...session, token: viewer.token };
    await subscribe(asViewer, "shared-laptop", `https://${pushHost()}/v`, keys.json);
    await subscribe(asViewer, "viewer-phone", `https://${pushHost()}/w`, keys.json);

    const removed = await unsubscribe(session, session.token, "viewer-phone");
    expect(await removed.json()).toEqual({ ok: true, result: { removed: true } });
    const mine = `https://${pushHost()}/owner`;
    expect((await subscribe(session, "shared-laptop", mine, keys.json)).status).toBe(201);
    expect(await subscribers(session.sessionId)).toEqual([
      { device_id: "shared-laptop", link_id: null, endpoint: mine },
    ]);
    // Now the owner's: the view link may no longer remove it.
    await expectError(
      await unsubscribe(session, viewer.token, "shared-laptop"),
      403,
      "not_your_subscription",
    );
  });

  it("frees the device ids of a share link once it expired, and forgets its subscriptions when the alarm enforces the expiry", async () => {
    const { session } = await pushSession();
    const keys = await browserKeys();
    const lent = await mintLink(session, { role: "answer", expiresInSeconds: 60 });
    const next = await mintLink(session, { role: "answer" });
    const asLent = { ...session, token: lent.token };
    await subscribe(asLent, "lent-phone", `https://${pushHost()}/l`, keys.json);
    await subscribe(asLent, "lent-tablet", `https://${pushHost()}/t`, keys.json);
    await subscribe(session, "owner-phone", `https://${pushHost()}/o`, keys.json);
    // The minute passes: the link's record says so (the alarm that enforces it has not run yet).
    await sqlRows(
      session.sessionId,
      `UPDATE meta SET value = json_set(value, '$[0].expiresAt', ?) WHERE key = 'share_links'`,
      Date.now() - 1,
    );
    const phone = `https://${pushHost()}/next`;
    expect((await subscribe({ ...session, token: next.token }, "lent-phone", phone, keys.json)).status).toBe(
      201,
    );

    await runDurableObjectAlarm(stubOf(session.sessionId));
    expect(await subscribers(session.sessionId)).toEqual([
      { device_id: "lent-phone", link_id: next.linkId, endpoint: phone },
      { device_id: "owner-phone", link_id: null, endpoint: expect.stringMatching(/\/o$/) },
    ]);
  });

  it("lets a view link subscribe: a person following the session is told that the agent waits", async () => {
    const { session, device } = await pushSession();
    const keys = await browserKeys();
    const host = pushHost();
    const viewer = await mintLink(session, { role: "view" });
    expect(
      (await subscribe({ ...session, token: viewer.token }, "viewer-phone", `https://${host}/v`, keys.json))
        .status,
    ).toBe(201);
    await openCard(device);
    await deliver(
      session,
      async () =>
        (await deliveryLog(session)).some(
          (row) => row.target === "viewer-phone" && row.status === "delivered",
        ),
      "the viewer's push",
    );
    expect((await sentTo(host)).map((request) => new URL(request.url).pathname)).toEqual(["/v"]);
  });

  it("takes at most five devices from one share link, so a link cannot crowd the owner out", async () => {
    const { session } = await pushSession();
    const keys = await browserKeys();
    const link = await mintLink(session, { role: "view" });
    const asLink = { ...session, token: link.token };
    for (let i = 0; i < 5; i++) {
      expect((await subscribe(asLink, `viewer-${i}`, `https://${pushHost()}/d${i}`, keys.json)).status).toBe(
        201,
      );
    }
    const before = await storageFingerprint(session.sessionId);
    const refused = await subscribe(asLink, "viewer-5", `https://${pushHost()}/d5`, keys.json);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      "A share link may subscribe at most 5 devices to push",
    );
    expect(await storageFingerprint(session.sessionId)).toBe(before);
    expect((await subscribe(asLink, "viewer-2", `https://${pushHost()}/again`, keys.json)).status).toBe(201);
    expect((await subscribe(session, "owner-phone", `https://${pushHost()}/o`, keys.json)).status).toBe(201);
  });

  it("answers an unknown device id removed by any token with removed: false, changing nothing", async () => {
    const { session } = await pushSession();
    const viewer = await mintLink(session, { role: "view" });
    expect((await api("GET", `/api/sessions/${session.sessionId}`, { token: viewer.token })).status).toBe(
      200,
    );
    const before = await storageFingerprint(session.sessionId);
    for (const token of [session.token, viewer.token]) {
      const response = await unsubscribe(session, token, "nobody");
      expect(await response.json()).toEqual({ ok: true, result: { removed: false } });
    }
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });
});
