import { describe, expect, it, vi } from "vitest";
import { createSession } from "../../helpers/session-harness";
import { sqlRows } from "../../helpers/session-object-probe";
import { mintLink } from "../access/access-fixtures";
import { storageFingerprint } from "../session-api/channel-fixtures";
import { browserKeys, subscribe } from "./notify-fixtures";

describe("push subscriptions", () => {
  it("refuse an endpoint outside the known push services with a 400 naming it, storing nothing", async () => {
    const session = await createSession();
    const link = await mintLink(session, { role: "answer" });
    const keys = (await browserKeys()).json;
    const before = await storageFingerprint(session.sessionId);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const cases: Array<[string, RegExp]> = [
      ["https://attacker.example/collect", /endpoint host attacker\.example is not a known push service/],
      ["https://fcm.googleapis.com.attacker.example/fcm/send/x", /fcm\.googleapis\.com\.attacker\.example/],
      ["https://notify.windows.com.evil.example/w/?token=x", /is not a known push service/],
      ["https://169.254.169.254/latest/meta-data", /169\.254\.169\.254 is not a known push service/],
      ["https://fcm.googleapis.com:8443/fcm/send/x", /default port, not 8443/],
    ];
    for (const [endpoint, message] of cases) {
      for (const token of [session.token, link.token]) {
        const response = await subscribe({ ...session, token }, "phone", endpoint, keys);
        const body = (await response.json()) as { error: { code: string; message: string } };
        expect({ status: response.status, code: body.error.code }).toEqual({
          status: 400,
          code: "invalid_input",
        });
        expect(body.error.message).toMatch(/^subscription\.endpoint: /);
        expect(body.error.message).toMatch(message);
      }
    }
    expect(await storageFingerprint(session.sessionId)).toBe(before);
    // Each refusal is in the security log, by session and link, without a token.
    const logged = warn.mock.calls.map((call) => String(call[0])).filter((text) => text.startsWith("{"));
    warn.mockRestore();
    expect(logged.map((text) => JSON.parse(text))).toContainEqual(
      expect.objectContaining({
        event: "push_endpoint_refused",
        sessionId: session.sessionId,
        linkId: link.linkId,
      }),
    );
    for (const token of [session.token, link.token]) expect(logged.join("\n")).not.toContain(token);
  });

  it("accept the endpoints browsers get from FCM, Mozilla, Apple and Windows", async () => {
    const session = await createSession();
    const keys = (await browserKeys()).json;
    const endpoints = [
      "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91bH",
      "https://fcm.googleapis.com/wp/dGVzdA",
      "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk",
      "https://web.push.apple.com/QGx5dGVzdA",
      "https://wns2-bl2p.notify.windows.com/w/?token=BQYAAAD",
    ];
    for (const [i, endpoint] of endpoints.entries()) {
      expect((await subscribe(session, `device-${i}`, endpoint, keys)).status).toBe(201);
    }
    const stored = await sqlRows<{ endpoint: string }>(
      session,
      `SELECT json_extract(subscription, '$.endpoint') AS endpoint FROM push_subscriptions ORDER BY device_id`,
    );
    expect(stored.map((row) => row.endpoint)).toEqual(endpoints);
  });
});
