// Parley's service worker: shows a notification when a card opens, replaces it when the card is
// resolved on any device, and opens (or focuses) the session at that card when tapped.
/* global self, clients */

self.addEventListener("push", (event) => {
  const message = event.data ? event.data.json() : null;
  if (!message || typeof message.title !== "string") return;
  const options = {
    body: message.body,
    tag: message.interactionId,
    data: { url: message.url },
    timestamp: Date.now(),
  };
  event.waitUntil(
    (async () => {
      if (message.change === "resolved") {
        // The same tag replaces the "waiting" notification; quietly, as nothing needs doing.
        await self.registration.showNotification(message.title, { ...options, silent: true });
        return;
      }
      await self.registration.showNotification(message.title, {
        ...options,
        requireInteraction: true,
        renotify: true,
      });
    })(),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  // Only this origin's pages: a notice's URL is data a push carried, never a way to open elsewhere.
  const url = sameOriginUrl(event.notification.data?.url);
  event.waitUntil(
    (async () => {
      const windows = await clients.matchAll({ type: "window", includeUncontrolled: true });
      const same = windows.find((client) => client.url.split("?")[0] === url.split("?")[0]);
      if (same) {
        await same.navigate(url).catch(() => undefined);
        return same.focus();
      }
      return clients.openWindow(url);
    })(),
  );
});

/** `raw` as an absolute URL on this service worker's origin, or the start page when it is not one. */
function sameOriginUrl(raw) {
  try {
    const url = new URL(typeof raw === "string" ? raw : "/", self.location.origin);
    return url.origin === self.location.origin ? url.href : new URL("/", self.location.origin).href;
  } catch {
    return new URL("/", self.location.origin).href;
  }
}
