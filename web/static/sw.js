// Parley's service worker: keeps the page's shell for offline starts; shows a notification when a
// card opens (with Approve and Deny when its push carries an answer token), replaces it when the
// card is resolved on any device, answers from an action with no page open, and otherwise opens
// (or focuses) the card when tapped. Pushes come in the classic form and the declarative one
// (`web_push: 8030`), which Safari 18.4+ may show by itself.
/* global self, clients, caches */

const SHELL_CACHE = "parley-shell-v1";
// What the page needs to start with no network: it then says it is offline and retries.
const SHELL = [
  "/",
  "/app.js",
  "/style.css",
  "/transcript.css",
  "/cards.css",
  "/call-display.css",
  "/session-controls.css",
  "/inbox.css",
  "/manifest.webmanifest",
  "/icons/icon-192.png",
];

self.addEventListener("install", (event) => {
  // One missing file must not keep the worker from installing: each is cached on its own.
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => Promise.all(SHELL.map((path) => cache.add(path).catch(() => undefined)))),
  );
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== SHELL_CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  // The API is never cached: its answers are the person's and change every moment.
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/"))
    return;
  const navigation = request.mode === "navigate";
  if (!navigation && !SHELL.includes(url.pathname)) return;
  // The network first, so a new version is seen at once; the kept shell when there is none.
  event.respondWith(
    (async () => {
      const cache = await caches.open(SHELL_CACHE);
      try {
        const response = await fetch(request);
        if (response.ok) await cache.put(navigation ? "/" : url.pathname, response.clone());
        return response;
      } catch (error) {
        const kept = await cache.match(navigation ? "/" : url.pathname);
        if (kept) return kept;
        throw error;
      }
    })(),
  );
});

self.addEventListener("push", (event) => {
  const message = readPush(event);
  if (!message) return;
  const options = {
    body: message.body,
    tag: message.interactionId,
    data: {
      url: message.url,
      sessionId: message.sessionId,
      interactionId: message.interactionId,
      answerToken: message.answerToken ?? null,
    },
    timestamp: Date.now(),
    icon: "/icons/icon-192.png",
  };
  event.waitUntil(
    (async () => {
      await setBadge(message.badge);
      if (message.change === "resolved") {
        // The same tag replaces the "waiting" notification; quietly, as nothing needs doing.
        await self.registration.showNotification(message.title, { ...options, silent: true });
        return;
      }
      const actions =
        message.answerToken && Array.isArray(message.actions)
          ? message.actions.filter((a) => a.action === "approve" || a.action === "deny")
          : [];
      await self.registration.showNotification(message.title, {
        ...options,
        requireInteraction: true,
        renotify: true,
        ...(actions.length > 0 ? { actions: actions.map(({ action, title }) => ({ action, title })) } : {}),
      });
    })(),
  );
});

self.addEventListener("notificationclick", (event) => {
  const notification = event.notification;
  const data = notification.data ?? {};
  notification.close();
  const decision = event.action === "approve" || event.action === "deny" ? event.action : null;
  event.waitUntil(decision && data.answerToken ? answerFromNotification(data, decision) : openCard(data.url));
});

/**
 * Approve or Deny from the notification: the answer token goes to the server with no page open.
 * A refusal (the card was answered elsewhere, the token was used) opens the card instead.
 */
async function answerFromNotification(data, decision) {
  let response;
  try {
    response = await fetch("/api/push/answer", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: data.answerToken, decision }),
    });
  } catch {
    return openCard(data.url);
  }
  if (!response.ok) return openCard(data.url);
  await self.registration.showNotification(decision === "approve" ? "Approved" : "Denied", {
    body: "Answered from the notification",
    tag: data.interactionId,
    data: { url: data.url },
    silent: true,
    icon: "/icons/icon-192.png",
  });
}

/** Opens (or focuses) this origin's page at the card. */
async function openCard(raw) {
  // Only this origin's pages: a notice's URL is data a push carried, never a way to open elsewhere.
  const url = sameOriginUrl(raw);
  const windows = await clients.matchAll({ type: "window", includeUncontrolled: true });
  const same = windows.find((client) => client.url.split("?")[0] === url.split("?")[0]);
  if (same) {
    await same.navigate(url).catch(() => undefined);
    return same.focus();
  }
  return clients.openWindow(url);
}

/** The push's message in the classic form, read from the declarative one when only that came. */
function readPush(event) {
  let message = null;
  try {
    message = event.data ? event.data.json() : null;
  } catch {
    return null;
  }
  if (!message || typeof message !== "object") return null;
  if (typeof message.title === "string") return message;
  const shown = message.notification;
  if (!shown || typeof shown.title !== "string") return null;
  return {
    change: "opened",
    title: shown.title,
    body: shown.body,
    url: shown.navigate,
    interactionId: shown.tag,
    badge: message.app_badge === undefined ? undefined : Number(message.app_badge),
  };
}

/** The app badge: the cards waiting for the person, as the push counted them. */
async function setBadge(count) {
  if (typeof count !== "number" || !Number.isFinite(count)) return;
  const nav = self.navigator;
  try {
    if (count > 0 && nav.setAppBadge) await nav.setAppBadge(count);
    else if (count === 0 && nav.clearAppBadge) await nav.clearAppBadge();
  } catch {
    // A platform without badges (or that refuses one) still shows the notification.
  }
}

/** `raw` as an absolute URL on this service worker's origin, or the start page when it is not one. */
function sameOriginUrl(raw) {
  try {
    const url = new URL(typeof raw === "string" ? raw : "/", self.location.origin);
    return url.origin === self.location.origin ? url.href : new URL("/", self.location.origin).href;
  } catch {
    return new URL("/", self.location.origin).href;
  }
}
