// `…/api/inbox/push-subscriptions`: "Notify this device" for the whole inbox. One subscription
// covers every session of the person; the inbox pushes each card that opens once per device.
import type { Hono } from "hono";
import { PushSubscriptionBody } from "../../protocol/reach/notify";
import { DeviceId } from "../../protocol/session/session";
import { describeZodError } from "../../protocol/wire/errors";
import { inboxStub } from "../../session/inbox-report/inbox-rpc";
import type { AppEnv } from "../app-env";
import { refuseUnknownPushService } from "../guards/push-endpoint-guard";
import { HttpError } from "../http-error";
import { personOf } from "../person";
import { readJsonBody } from "../read-json-body";

export function inboxPushRoutes(routes: Hono<AppEnv>): void {
  routes.post("/push-subscriptions", async (c) => {
    if (!c.get("config").push) {
      throw new HttpError("invalid_input", "This server has no VAPID keys, so it cannot send Web Push");
    }
    const body = await readJsonBody(c, PushSubscriptionBody);
    const link = c.get("inboxLink");
    // As for a session's subscriptions: the Worker posts only to known push services.
    refuseUnknownPushService(c, body.subscription.endpoint, {
      sessionId: null,
      linkId: link?.linkId ?? null,
    });
    // A push opens the inbox; the device keeps its own credential (an inbox link's stays in the browser).
    const url = `${new URL(c.req.url).origin}/#/inbox?from=push`;
    const person = personOf(c);
    const refused = await inboxStub(c.env, person).subscribePush(
      body,
      { linkId: link?.linkId ?? null, person },
      url,
    );
    if (refused) throw HttpError.from(refused);
    return c.json({ deviceId: body.deviceId }, 201);
  });

  routes.delete("/push-subscriptions/:deviceId", async (c) => {
    const deviceId = DeviceId.safeParse(c.req.param("deviceId"));
    if (!deviceId.success)
      throw new HttpError("invalid_input", `deviceId: ${describeZodError(deviceId.error)}`);
    const link = c.get("inboxLink");
    const removed = await inboxStub(c.env, personOf(c)).unsubscribePush(deviceId.data, link?.linkId ?? null);
    return c.json({ removed });
  });

  routes.get("/deliveries", async (c) => {
    return c.json({ deliveries: await inboxStub(c.env, personOf(c)).deliveries() });
  });
}
