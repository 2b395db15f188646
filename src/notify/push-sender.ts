// Web Push: the notice encrypted for one subscription (RFC 8291, aes128gcm) and signed with the
// deployment's VAPID key (RFC 8292) by @block65/webcrypto-web-push, then POSTed to its push service.
import type { CardNotice, PushSubscriptionJson } from "../protocol/reach/notify";
import { attempt, resultOf, type SendResult } from "./send-result";

export interface VapidConfig {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** What one device's push adds to the card's notice: its answer token, and the person's waiting cards. */
export interface PushExtras {
  /** The capability the notification's Approve and Deny answer with (src/tokens/push-answer-token.ts). */
  answerToken?: string;
  /** How many cards wait for the person: the app's badge. */
  badge?: number;
}

/** The notification's actions, when its card may be answered from it. */
export const PUSH_ACTIONS = [
  { action: "approve", title: "Approve" },
  { action: "deny", title: "Deny" },
] as const;

/**
 * The fields the service worker needs (the classic form), and the same notification in the
 * declarative form (`web_push: 8030`) that Safari 18.4+ shows by itself; the request itself stays
 * out of the push (size, privacy). An answer token comes with its actions, never without.
 */
export function pushMessage(notice: CardNotice, extras: PushExtras = {}) {
  const open = notice.change !== "resolved";
  const actions = extras.answerToken && open ? PUSH_ACTIONS : null;
  // Safari shows the declarative actions itself and opens their `navigate`: the card, never an answer.
  const declarative = {
    title: notice.title,
    body: notice.body,
    navigate: notice.url,
    tag: notice.card.interactionId,
    silent: !open,
    // The declarative form's badge is a string (WebKit's own example: "app_badge": "1").
    ...(extras.badge !== undefined ? { app_badge: String(extras.badge) } : {}),
    ...(actions ? { actions: actions.map((action) => ({ ...action, navigate: notice.url })) } : {}),
  };
  return {
    web_push: 8030,
    notification: declarative,
    // The service worker may replace what Safari would show (and must, to answer from an action).
    mutable: true,
    change: notice.change,
    sessionId: notice.sessionId,
    interactionId: notice.card.interactionId,
    title: notice.title,
    body: notice.body,
    url: notice.url,
    deadline: notice.deadline,
    ...(extras.badge !== undefined ? { badge: extras.badge } : {}),
    ...(actions && extras.answerToken ? { actions, answerToken: extras.answerToken } : {}),
  };
}
export type PushMessage = ReturnType<typeof pushMessage>;

export async function sendPush(
  vapid: VapidConfig,
  subscription: PushSubscriptionJson,
  notice: CardNotice,
  now: number,
  extras: PushExtras = {},
): Promise<SendResult> {
  // An open card's push (opened, reminder) is useless after its deadline; a resolved one only tidies up.
  const open = notice.change !== "resolved";
  const ttl = open ? Math.max(60, Math.ceil((notice.deadline - now) / 1000)) : 15 * 60;
  // Loaded with the first push: most objects never send one.
  const { buildPushPayload } = await import("@block65/webcrypto-web-push");
  const payload = await buildPushPayload(
    {
      data: pushMessage(notice, extras),
      options: { ttl, urgency: open ? "high" : "normal", topic: topicOf(notice) },
    },
    {
      // The library signs for https only; a local push service a dev server allowed on http
      // (push-services.ts) is signed for as if it were https, and posted to as it is.
      endpoint: subscription.endpoint.replace(/^http:/, "https:"),
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
