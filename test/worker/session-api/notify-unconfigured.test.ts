import { describe, expect, it } from "vitest";
import { api, createSession } from "../../helpers/session-harness";
import { pausedSession, storageFingerprint } from "./channel-fixtures";

const subscription = {
  endpoint: "https://push.parley.test/x",
  keys: { p256dh: `B${"A".repeat(86)}`, auth: "AAAAAAAAAAAAAAAAAAAAAA" },
};

describe("a deployment without VAPID keys", () => {
  it("tells the page it cannot push, and why", async () => {
    const response = await api("GET", "/api/notify");
    const info = (await response.json()) as { vapidPublicKey: string | null; reason: string };
    expect(info.vapidPublicKey).toBeNull();
    expect(info.reason).toMatch(/no VAPID keys/);
  });

  it("refuses push subscriptions with 404, storing nothing", async () => {
    const session = await createSession();
    const before = await storageFingerprint(session.sessionId);
    const response = await api("POST", `/api/sessions/${session.sessionId}/push-subscriptions`, {
      token: session.token,
      body: { deviceId: "phone", subscription },
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/VAPID/);
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });

  it("queues no deliveries when a card opens", async () => {
    const session = await pausedSession();
    const response = await api("GET", `/api/sessions/${session.sessionId}/deliveries`, {
      token: session.token,
    });
    expect(await response.json()).toEqual({ deliveries: [] });
  });
});
