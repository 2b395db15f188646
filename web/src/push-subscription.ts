// "Notify this device": registers the service worker, asks for notification permission, subscribes
// with the server's VAPID key and hands the subscription to the session, per device.

import { ApiError } from "../../client/session-api";
import type { SessionRoute } from "../../client/session-link";
import type { NotifyInfo, PushSubscriptionBody } from "../../src/protocol/index";

export type PushState =
  | { kind: "unavailable"; reason: string }
  | { kind: "off" }
  | { kind: "on" }
  | { kind: "blocked" };

const SUBSCRIBED = (sessionId: string) => `parley.push.${sessionId}`;

function supported(): string | null {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    return "This browser cannot receive push notifications.";
  }
  if (!window.isSecureContext) return "Push notifications need https (or localhost).";
  return null;
}

export async function notifyInfo(): Promise<NotifyInfo> {
  const response = await fetch("/api/notify");
  return (await response.json()) as NotifyInfo;
}

/** What the control should show right now. */
export async function currentPushState(route: SessionRoute, info: NotifyInfo): Promise<PushState> {
  if (!info.vapidPublicKey) return { kind: "unavailable", reason: info.reason ?? "Push is not configured." };
  const reason = supported();
  if (reason) return { kind: "unavailable", reason };
  if (Notification.permission === "denied") return { kind: "blocked" };
  const registration = await navigator.serviceWorker.getRegistration("/");
  const subscription = await registration?.pushManager.getSubscription();
  return subscription && localStorage.getItem(SUBSCRIBED(route.sessionId)) ? { kind: "on" } : { kind: "off" };
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64url.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function post(route: SessionRoute, method: string, path: string, body?: unknown): Promise<void> {
  const response = await fetch(`/api/sessions/${route.sessionId}/${path}`, {
    method,
    headers: { authorization: `Bearer ${route.token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const error = ((await response.json().catch(() => null)) as { error?: { code: string; message: string } })
      ?.error;
    throw new ApiError(
      response.status,
      error?.code ?? "http_error",
      error?.message ?? `HTTP ${response.status}`,
    );
  }
}

/** Why this browser or server cannot push, or null when it can. */
export function pushUnavailable(info: NotifyInfo): string | null {
  if (!info.vapidPublicKey) return info.reason ?? "Push is not configured.";
  return supported();
}

/**
 * Asks permission (must run from a click) and subscribes this browser with the server's VAPID key;
 * null when the person did not allow notifications. The one subscription serves sessions and inbox.
 */
export async function browserSubscription(
  info: NotifyInfo,
): Promise<PushSubscriptionBody["subscription"] | null> {
  const permission = await Notification.requestPermission();
  if (permission !== "granted" || !info.vapidPublicKey) return null;
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(info.vapidPublicKey),
    }));
  return subscription.toJSON() as PushSubscriptionBody["subscription"];
}

/** Asks permission (must run from a click), subscribes, and registers the subscription with the session. */
export async function enablePush(
  route: SessionRoute,
  deviceId: string,
  info: NotifyInfo,
): Promise<PushState> {
  if (!info.vapidPublicKey) return { kind: "unavailable", reason: info.reason ?? "Push is not configured." };
  const subscription = await browserSubscription(info);
  if (!subscription) return Notification.permission === "denied" ? { kind: "blocked" } : { kind: "off" };
  const body: PushSubscriptionBody = { deviceId, subscription };
  await post(route, "POST", "push-subscriptions", body);
  localStorage.setItem(SUBSCRIBED(route.sessionId), "1");
  return { kind: "on" };
}

/** Stops this session's pushes to this device (the browser subscription stays for other sessions). */
export async function disablePush(route: SessionRoute, deviceId: string): Promise<PushState> {
  await post(route, "DELETE", `push-subscriptions/${encodeURIComponent(deviceId)}`);
  localStorage.removeItem(SUBSCRIBED(route.sessionId));
  return { kind: "off" };
}
