import { afterEach, describe, expect, it } from "vitest";
import type { CardNotice } from "../../../src/protocol";
import { NOTIFY_BINDINGS } from "../../helpers/notify-bindings";
import { api, connect, createSession, type Device, textReply } from "../../helpers/session-harness";
import { sqlRows } from "../../helpers/session-object-probe";
import { mintLink } from "../access/access-fixtures";
import { storageFingerprint } from "../session-api/channel-fixtures";
import {
  ASK,
  type BrowserKeys,
  browserKeys,
  decryptPush,
  deliver,
  deliveryLog,
  openCard,
  pushHost,
  scriptAnswers,
  sentTo,
  subscribe,
  verifyVapid,
} from "./notify-fixtures";

let devices: Device[] = [];
afterEach(() => {
  for (const device of devices) device.close();
  devices = [];
});

async function askingSession(script = [ASK, textReply("Postgres it is.")]) {
  const session = await createSession({ script });
  const device = await connect(session, { device: "laptop" });
  devices.push(device);
  return { session, device };
}

async function decryptedPushes(host: string, keys: BrowserKeys): Promise<CardNotice[]> {
  return Promise.all(
    (await sentTo(host)).map(async (request) => (await decryptPush(request.body, keys)) as CardNotice),
  );
}

describe("Web Push notifications", () => {
  it("pushes an encrypted, VAPID-signed notice when a card opens, and another when it resolves", async () => {
    const { session, device } = await askingSession();
    const host = pushHost();
    const keys = await browserKeys();
    expect((await subscribe(session, "phone", `https://${host}/send/abc`, keys.json)).status).toBe(201);

    await openCard(device);
    const [opened] = await deliver(
      session,
      async () => (await sentTo(host)).length >= 1 && sentTo(host),
      "the first push",
    );
    expect(opened?.method).toBe("POST");
    expect(opened?.url).toBe(`https://${host}/send/abc`);
    expect(opened?.headers["content-encoding"]).toBe("aes128gcm");
    expect(opened?.headers.urgency).toBe("high");
    expect(Number(opened?.headers.ttl)).toBeGreaterThan(500);
    const claims = await verifyVapid(opened?.headers.authorization ?? "", NOTIFY_BINDINGS.VAPID_PUBLIC_KEY);
    expect(claims.aud).toBe(`https://${host}`);
    expect(claims.sub).toBe(NOTIFY_BINDINGS.VAPID_SUBJECT);
    expect(Number(claims.exp)).toBeGreaterThan(Date.now() / 1000);
    expect(Number(claims.exp)).toBeLessThanOrEqual(Date.now() / 1000 + 24 * 3600);

    const [notice] = await decryptedPushes(host, keys);
    expect(notice).toMatchObject({
      change: "opened",
      sessionId: session.sessionId,
      interactionId: "toolu_ask_push",
      title: "The agent has a question",
    });
    expect((notice as unknown as { body: string }).body).toMatch(
      /^Which database should the service use\? — 10 minutes left/,
    );
    expect((notice as unknown as { url: string }).url).toBe(`${session.shareUrl}&card=toolu_ask_push`);

    const answer = await api("POST", `/api/sessions/${session.sessionId}/submit-answers`, {
      token: session.token,
      headers: { "x-device-id": "laptop" },
      body: { toolCallId: "toolu_ask_push", answers: { "0": "Postgres" } },
    });
    expect(answer.status).toBe(200);
    await deliver(session, async () => (await sentTo(host)).length >= 2, "the second push");
    const [, resolved] = await decryptedPushes(host, keys);
    expect(resolved).toMatchObject({
      change: "resolved",
      interactionId: "toolu_ask_push",
      title: "Answered on laptop",
    });

    const log = await deliveryLog(session);
    expect(
      log.filter((row) => row.channel === "push").map((row) => [row.change, row.status, row.target]),
    ).toEqual([
      ["resolved", "delivered", "phone"],
      ["opened", "delivered", "phone"],
    ]);
  });

  it("does not push to a subscribed device that has the session open, nor its resolution", async () => {
    const { session, device } = await askingSession();
    const host = pushHost();
    const keys = await browserKeys();
    await subscribe(session, "laptop", `https://${host}/open-tab`, keys.json);
    await subscribe(session, "phone", `https://${host}/pocket`, keys.json);
    await openCard(device);
    await device.request({
      type: "submit_answers",
      toolCallId: "toolu_ask_push",
      answers: { "0": "SQLite" },
    });
    await deliver(
      session,
      async () => (await deliveryLog(session)).filter((row) => row.status === "delivered").length >= 4,
      "the pushes and webhooks",
    );
    const pushes = (await deliveryLog(session)).filter((row) => row.channel === "push");
    expect(pushes.map((row) => [row.target, row.change])).toEqual([
      ["phone", "resolved"],
      ["phone", "opened"],
    ]);
    expect((await sentTo(host)).map((request) => new URL(request.url).pathname)).toEqual([
      "/pocket",
      "/pocket",
    ]);
  });

  it("still pushes to the owner's device when another credential's socket claims its device id", async () => {
    const { session, device } = await askingSession();
    const host = pushHost();
    const keys = await browserKeys();
    expect((await subscribe(session, "phone", `https://${host}/pocket`, keys.json)).status).toBe(201);
    // A view link opens the session as "phone": the device id is no secret (receipts name it).
    const viewer = await mintLink(session, { role: "view" });
    const impostor = await connect({ ...session, token: viewer.token }, { device: "phone" });
    devices.push(impostor);
    await openCard(device);
    await deliver(
      session,
      async () =>
        (await deliveryLog(session)).some((row) => row.channel === "push" && row.status === "delivered"),
      "the owner's phone's push",
    );
    const pushes = (await deliveryLog(session)).filter((row) => row.channel === "push");
    expect(pushes.map((row) => [row.target, row.change])).toEqual([["phone", "opened"]]);
    expect((await sentTo(host)).map((request) => new URL(request.url).pathname)).toEqual(["/pocket"]);
  });

  it("links a device that subscribed through an answer link with that link's token, never the owner's", async () => {
    const { session, device } = await askingSession();
    const link = await mintLink(session, { role: "answer", label: "phone" });
    const host = pushHost();
    const keys = await browserKeys();
    const subscribed = await subscribe(
      { ...session, token: link.token },
      "phone",
      `https://${host}/p`,
      keys.json,
    );
    expect(subscribed.status).toBe(201);

    await openCard(device);
    await device.request({
      type: "submit_answers",
      toolCallId: "toolu_ask_push",
      answers: { "0": "Postgres" },
    });
    await deliver(session, async () => (await sentTo(host)).length >= 2, "the open and resolve pushes");
    const notices = (await decryptedPushes(host, keys)) as unknown as Array<{ change: string; url: string }>;
    expect(notices.map((notice) => notice.change)).toEqual(["opened", "resolved"]);
    for (const notice of notices) {
      expect(notice.url).toBe(`${link.shareUrl}&card=toolu_ask_push`);
      expect(notice.url).not.toContain(session.token);
    }
  });

  it("stops pushing to a device once the share link it subscribed through is revoked", async () => {
    const { session, device } = await askingSession();
    const link = await mintLink(session, { role: "view" });
    const host = pushHost();
    const keys = await browserKeys();
    await subscribe({ ...session, token: link.token }, "viewer-phone", `https://${host}/viewer`, keys.json);
    await subscribe(session, "owner-phone", `https://${host}/owner`, keys.json);
    const revoked = await api("DELETE", `/api/sessions/${session.sessionId}/links/${link.linkId}`, {
      token: session.token,
    });
    expect(revoked.status).toBe(200);

    await openCard(device);
    await deliver(session, async () => (await sentTo(host)).length >= 1, "the owner's push");
    await deliver(
      session,
      async () => (await deliveryLog(session)).every((row) => row.status !== "pending"),
      "every delivery settled",
    );
    expect((await sentTo(host)).map((request) => new URL(request.url).pathname)).toEqual(["/owner"]);
    expect(await sqlRows(session.sessionId, `SELECT device_id FROM push_subscriptions`)).toEqual([
      { device_id: "owner-phone" },
    ]);
  });

  it("sends nothing to a device whose share link expired since it subscribed, and forgets it", async () => {
    const { session, device } = await askingSession();
    const link = await mintLink(session, { role: "answer", expiresInSeconds: 60 });
    const host = pushHost();
    const keys = await browserKeys();
    await subscribe({ ...session, token: link.token }, "lent-phone", `https://${host}/lent`, keys.json);
    await subscribe(session, "owner-phone", `https://${host}/owner`, keys.json);
    // The minute passes: the link's record says so.
    await sqlRows(
      session.sessionId,
      `UPDATE meta SET value = json_set(value, '$[0].expiresAt', ?) WHERE key = 'share_links'`,
      Date.now() - 1,
    );

    await openCard(device);
    await deliver(
      session,
      async () => {
        const rows = (await deliveryLog(session)).filter((row) => row.channel === "push");
        return rows.length === 2 && rows.every((row) => row.status !== "pending") && rows;
      },
      "both push deliveries settled",
    );
    const pushes = (await deliveryLog(session)).filter((row) => row.channel === "push");
    expect(pushes.map((row) => [row.target, row.status]).sort()).toEqual([
      ["lent-phone", "gone"],
      ["owner-phone", "delivered"],
    ]);
    expect((await sentTo(host)).map((request) => new URL(request.url).pathname)).toEqual(["/owner"]);
    expect(await sqlRows(session.sessionId, `SELECT device_id FROM push_subscriptions`)).toEqual([
      { device_id: "owner-phone" },
    ]);
  });

  it("removes a subscription the push service answers 410 Gone, and stops pushing to it", async () => {
    const { session, device } = await askingSession();
    const host = pushHost();
    const keys = await browserKeys();
    await scriptAnswers(host, [410]);
    await subscribe(session, "old-phone", `https://${host}/gone`, keys.json);
    await openCard(device);
    await deliver(
      session,
      async () => (await deliveryLog(session)).some((row) => row.channel === "push" && row.status === "gone"),
      "the gone delivery",
    );
    expect(await sqlRows(session.sessionId, `SELECT device_id FROM push_subscriptions`)).toEqual([]);
    const gone = (await deliveryLog(session)).find((row) => row.channel === "push");
    expect(gone).toMatchObject({ status: "gone", lastStatus: 410, attempts: 1 });

    await api("POST", `/api/sessions/${session.sessionId}/submit-answers`, {
      token: session.token,
      body: { toolCallId: "toolu_ask_push", answers: { "0": "SQLite" } },
    });
    await device.waitForEvent("interaction_resolved");
    await deliver(
      session,
      async () => (await deliveryLog(session)).some((row) => row.change === "resolved"),
      "webhook",
    );
    expect((await sentTo(host)).length).toBe(1);
    expect((await deliveryLog(session)).filter((row) => row.channel === "push")).toHaveLength(1);
  });

  it("keeps the turn going while the push service fails, retrying on the alarm with backoff", async () => {
    const { session, device } = await askingSession();
    const host = pushHost();
    const keys = await browserKeys();
    await scriptAnswers(host, [503]);
    await subscribe(session, "phone", `https://${host}/flaky`, keys.json);
    await openCard(device);
    const [failed] = await deliver(
      session,
      async () => {
        const rows = (await deliveryLog(session)).filter(
          (row) => row.channel === "push" && row.attempts === 1,
        );
        return rows.length > 0 && rows[0]?.status === "pending" && rows;
      },
      "a failed first attempt",
    );
    expect(failed).toMatchObject({ lastStatus: 503, lastError: "answer 503" });
    expect(failed?.nextAt ?? 0).toBeGreaterThan(Date.now() + 2_000);
    // The card is still open and answerable while the push waits for its retry.
    const answer = await api("POST", `/api/sessions/${session.sessionId}/submit-answers`, {
      token: session.token,
      body: { toolCallId: "toolu_ask_push", answers: { "0": "Postgres" } },
    });
    expect(answer.status).toBe(200);
    await device.waitForDone();
  });

  it("refuses a subscription with a non-https endpoint or malformed keys with 400, storing nothing", async () => {
    const { session } = await askingSession();
    const keys = await browserKeys();
    const before = await storageFingerprint(session.sessionId);
    const cases: Array<[string, Record<string, string>, RegExp]> = [
      ["http://push.parley.test/x", keys.json, /endpoint must be https/],
      ["https://push.parley.test/x", { ...keys.json, p256dh: keys.json.p256dh.slice(4) }, /p256dh/],
      ["https://push.parley.test/x", { ...keys.json, auth: "not*base64" }, /auth/],
    ];
    for (const [endpoint, badKeys, message] of cases) {
      const response = await subscribe(
        session,
        "phone",
        endpoint,
        badKeys as { p256dh: string; auth: string },
      );
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("invalid_input");
      expect(body.error.message).toMatch(message);
    }
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });

  it("takes subscriptions from at most twenty devices, while one device may replace its own", async () => {
    const { session } = await askingSession();
    const keys = await browserKeys();
    for (let i = 0; i < 20; i++) {
      expect((await subscribe(session, `device-${i}`, `https://${pushHost()}/d${i}`, keys.json)).status).toBe(
        201,
      );
    }
    const before = await storageFingerprint(session.sessionId);
    const refused = await subscribe(session, "device-20", `https://${pushHost()}/d20`, keys.json);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /at most 20 devices/,
    );
    expect(await storageFingerprint(session.sessionId)).toBe(before);
    expect((await subscribe(session, "device-3", `https://${pushHost()}/again`, keys.json)).status).toBe(201);
  });

  it("tells the page the VAPID public key to subscribe with", async () => {
    const response = await api("GET", "/api/notify");
    expect(await response.json()).toEqual({ vapidPublicKey: NOTIFY_BINDINGS.VAPID_PUBLIC_KEY, reason: null });
  });
});
