// Web Push: the notice encrypted for one subscription (RFC 8291, aes128gcm) and signed with the
// deployment's VAPID key (RFC 8292) by @block65/webcrypto-web-push, then POSTed to its push service.
import type { CardNotice, PushSubscriptionJson } from "../protocol/notify";
import { attempt, resultOf, type SendResult } from "./send-result";

export interface VapidConfig {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** The fields the service worker needs; the request itself stays out of the push (size, privacy). */
export function pushMessage(notice: CardNotice) {
  return {
    change: notice.change,
    sessionId: notice.sessionId,
    interactionId: notice.card.interactionId,
    title: notice.title,
    body: notice.body,
    url: notice.url,
    deadline: notice.deadline,
  };
}
export type PushMessage = ReturnType<typeof pushMessage>;

export async function sendPush(
  vapid: VapidConfig,
  subscription: PushSubscriptionJson,
  notice: CardNotice,
  now: number,
): Promise<SendResult> {
  // An open card's push (opened, reminder) is useless after its deadline; a resolved one only tidies up.
  const open = notice.change !== "resolved";
  const ttl = open ? Math.max(60, Math.ceil((notice.deadline - now) / 1000)) : 15 * 60;
  // Loaded with the first push: most objects never send one.
  const { buildPushPayload } = await import("@block65/webcrypto-web-push");
  const payload = await buildPushPayload(
    {
      data: pushMessage(notice),
      options: { ttl, urgency: open ? "high" : "normal", topic: topicOf(notice) },
    },
    {
      endpoint: subscription.endpoint,
      expirationTime: subscription.expirationTime ?? null,
      keys: subscription.keys,
    },
    vapid,
  );
  const response = await attempt((signal) => fetch(subscription.endpoint, { ...payload, signal }));
  if (!(response instanceof Response)) return response;
  if (response.status === 404 || response.status === 410)
    return { kind: "gone", httpStatus: response.status };
  return resultOf(response);
}

// RFC 8030 topics replace an undelivered push with a newer one of the same topic: a resolve then
// supersedes its card's open push on a phone that was offline. Topics are at most 32 base64url chars.
function topicOf(notice: CardNotice): string {
  return notice.card.interactionId.replace(/[^A-Za-z0-9_-]/g, "").slice(-32) || "card";
}
