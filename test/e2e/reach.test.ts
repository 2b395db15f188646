import { webcrypto } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DeliveryView, SessionEvent } from "../../src/protocol/index";
import { hasChromium } from "./browser-env";
import {
  askReply,
  baseUrl,
  launchBrowser,
  openDevice,
  postAs,
  postMessage,
  say,
  scriptedSession,
} from "./harness";

const b64url = (bytes: ArrayBuffer) => Buffer.from(bytes).toString("base64url");

/**
 * Keys made the way a browser makes them, for the stand-in subscription below; its endpoint is on an
 * `.invalid` host that no push service answers (there is no internet here).
 */
async function fakePushService(): Promise<{ endpoint: string; p256dh: string; auth: string }> {
  const pair = await webcrypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ]);
  return {
    endpoint: `https://push.parley.invalid/send/${Math.random().toString(36).slice(2)}`,
    p256dh: b64url(await webcrypto.subtle.exportKey("raw", pair.publicKey)),
    auth: b64url(webcrypto.getRandomValues(new Uint8Array(16)).buffer),
  };
}

let contexts: BrowserContext[] = [];
afterEach(async () => {
  for (const context of contexts) await context.close();
  contexts = [];
});

function track(page: Page): Page {
  contexts.push(page.context());
  return page;
}

describe.skipIf(!hasChromium)("reaching people away from the tab (chromium)", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ notifications: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("subscribes this device with notification permission granted, and its service worker shows and replaces the card's notification", async () => {
    const session = await scriptedSession([askReply("toolu_push_card"), say("Thanks.")]);
    const service = await fakePushService();
    const context = await browser.newContext();
    contexts.push(context);
    await context.grantPermissions(["notifications"], { origin: baseUrl() });
    // What is real here: Chromium; the notification permission, granted through the browser context;
    // the page's "Notify this device" code and the service worker it registers (/sw.js); the
    // subscription the page POSTs to the Worker (wrangler dev); the delivery row the Worker writes when
    // a card opens with every tab closed; the notification's link opening the session at the card; and
    // the service worker's push handler showing, then replacing, the notification.
    // What is not: Chromium's push service (FCM) is out of reach offline, so PushManager.subscribe and
    // getSubscription are replaced below by a stand-in that records the options the page passes and
    // returns a subscription the test made (an endpoint on push.parley.invalid, keys from
    // fakePushService). The Worker's encrypted push to that endpoint therefore never arrives (its
    // delivery is left failing, which the test checks), and the pushes the service worker receives are
    // plain JSON notices the test hands it through the DevTools protocol
    // (ServiceWorker.deliverPushMessage), not the Worker's ciphertext. The payload encryption
    // (RFC 8291) and the VAPID signature (RFC 8292) are checked where the Worker's real requests are
    // caught and decrypted: test/worker/notify/web-push.test.ts.
    await context.addInitScript((fake) => {
      const subscription = {
        endpoint: fake.endpoint,
        expirationTime: null,
        toJSON: () => ({
          endpoint: fake.endpoint,
          expirationTime: null,
          keys: { p256dh: fake.p256dh, auth: fake.auth },
        }),
      };
      // The browser keeps a subscription across page loads; so does this stand-in.
      const KEY = "test.pushSubscribed";
      PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
        const key = new Uint8Array(options?.applicationServerKey as ArrayBuffer);
        localStorage.setItem(
          "test.subscribeOptions",
          JSON.stringify({
            userVisibleOnly: options?.userVisibleOnly,
            applicationServerKey: btoa(String.fromCharCode(...key))
              .replaceAll("+", "-")
              .replaceAll("/", "_")
              .replace(/=+$/, ""),
          }),
        );
        localStorage.setItem(KEY, "1");
        return subscription as unknown as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () =>
        localStorage.getItem(KEY) ? (subscription as unknown as PushSubscription) : null;
    }, service);
    const first = await context.newPage();
    await first.goto(session.shareUrl);
    await first.locator(".connection[data-state=connected]").waitFor();

    const toggle = first.getByRole("button", { name: "Notify this device" });
    await toggle.click();
    await first.getByRole("button", { name: "Notifications on" }).waitFor();
    expect(await first.locator(".notify").getAttribute("data-state")).toBe("on");
    const deviceId = await first.evaluate(() => localStorage.getItem("parley.deviceId"));
    // The page subscribed with the server's VAPID key, for notifications the person sees.
    const { vapidPublicKey } = (await (await fetch(`${baseUrl()}/api/notify`)).json()) as {
      vapidPublicKey: string;
    };
    expect(
      JSON.parse((await first.evaluate(() => localStorage.getItem("test.subscribeOptions"))) ?? "null"),
    ).toEqual({ userVisibleOnly: true, applicationServerKey: vapidPublicKey });

    // With every tab closed, the session pushes to this device when a card opens (logged under its id).
    await first.close();
    await expect
      .poll(async () => {
        const response = await fetch(`${baseUrl()}/api/sessions/${session.sessionId}/stats`, {
          headers: { authorization: `Bearer ${session.token}` },
        });
        return ((await response.json()) as { sockets: number }).sockets;
      })
      .toBe(0);
    await postMessage(session, "Plan it");
    await expect
      .poll(async () => {
        const response = await fetch(`${baseUrl()}/api/sessions/${session.sessionId}/deliveries`, {
          headers: { authorization: `Bearer ${session.token}` },
        });
        const { deliveries } = (await response.json()) as { deliveries: DeliveryView[] };
        return deliveries
          .filter((row) => row.channel === "push")
          .map((row) => [row.target, row.change, row.attempts > 0 && row.status]);
      })
      // Attempted, and not delivered: no push service answers on push.parley.invalid.
      .toEqual([[deviceId, "opened", expect.stringMatching(/^(pending|failed)$/)]]);

    // The notification's link opens the session at that card.
    const url = `${session.shareUrl}&card=toolu_push_card`;
    const page = await context.newPage();
    await page.goto(url);
    await page.locator(".question-card").waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest(".question-card") !== null))
      .toBe(true);

    // Deliver pushes to the real service worker, as the push service would.
    const cdp = await context.newCDPSession(page);
    const registrations: Array<{ registrationId: string; scopeURL: string }> = [];
    const activated = new Set<string>();
    cdp.on("ServiceWorker.workerRegistrationUpdated", (event) => registrations.push(...event.registrations));
    cdp.on("ServiceWorker.workerVersionUpdated", (event) => {
      for (const version of event.versions) {
        if (version.status === "activated") activated.add(version.registrationId);
      }
    });
    await cdp.send("ServiceWorker.enable");
    await expect.poll(() => registrations.some((r) => r.scopeURL.startsWith(baseUrl()))).toBe(true);
    const registrationId = registrations.find((r) => r.scopeURL.startsWith(baseUrl()))?.registrationId ?? "";
    // The browser hands a push to the active worker; wait until there is one.
    await expect.poll(() => activated.has(registrationId)).toBe(true);
    const push = async (message: Record<string, unknown>) =>
      cdp.send("ServiceWorker.deliverPushMessage", {
        origin: baseUrl(),
        registrationId,
        data: JSON.stringify(message),
      });
    const notifications = () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
        }));
      });
    // Chromium now and then drops a push handed over through DevTools while it is busy (about one
    // run in ten on a loaded machine), so each is sent again until the worker shows it, as a push
    // service retries. A push with the same tag replaces the notification, so a repeat is harmless.
    const showsAfterPush = (message: Record<string, unknown>, shown: unknown[]) =>
      expect
        .poll(
          async () => {
            await push(message);
            return notifications();
          },
          { interval: 500 },
        )
        .toEqual(shown);
    await showsAfterPush(
      {
        change: "opened",
        interactionId: "toolu_push_card",
        title: "The agent has a question",
        body: "Which plan should I follow? — 10 minutes left to answer",
        url,
      },
      [
        {
          title: "The agent has a question",
          body: "Which plan should I follow? — 10 minutes left to answer",
          tag: "toolu_push_card",
        },
      ],
    );
    await showsAfterPush(
      {
        change: "resolved",
        interactionId: "toolu_push_card",
        title: "Answered on web-1",
        body: "Which plan should I follow?",
        url,
      },
      [{ title: "Answered on web-1", body: "Which plan should I follow?", tag: "toolu_push_card" }],
    );

    await page.getByRole("button", { name: "Notifications on" }).click();
    await page.getByRole("button", { name: "Notify this device" }).waitFor();
  });

  it("hides the button and says why when the server has no VAPID keys", async () => {
    const session = await scriptedSession([say("hi")]);
    const context = await browser.newContext();
    contexts.push(context);
    await context.route("**/api/notify", (route) =>
      route.fulfill({
        json: {
          vapidPublicKey: null,
          reason:
            "This server has no VAPID keys (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY), so it cannot send Web Push.",
        },
      }),
    );
    const page = await context.newPage();
    await page.goto(session.shareUrl);
    await page.locator(".notify[data-state=unavailable]").waitFor();
    expect(await page.getByRole("button", { name: "Notify this device" }).count()).toBe(0);
    expect(await page.locator(".notify-note").textContent()).toMatch(
      /^Notifications off: This server has no VAPID keys/,
    );
  });

  it("streams events to a browser EventSource, resuming after a cursor and continuing live", async () => {
    const session = await scriptedSession([say("First."), say("Second.")]);
    await postMessage(session, "one");
    const page = track(await openDevice(browser, session, "watcher"));
    await page.getByText("First.").waitFor();
    await page.evaluate(
      async ({ sessionId, token }) => {
        const seen: unknown[] = [];
        (window as unknown as { seen: unknown[] }).seen = seen;
        // A single-use ticket in the URL, never the token.
        const response = await fetch(`/api/sessions/${sessionId}/ws-ticket`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}` },
        });
        const { ticket } = (await response.json()) as { ticket: string };
        const source = new EventSource(`/api/sessions/${sessionId}/events/stream?ticket=${ticket}&after=2`);
        source.onmessage = (message) =>
          seen.push({ id: message.lastEventId, event: JSON.parse(message.data) });
      },
      { sessionId: session.sessionId, token: session.token },
    );
    const seen = () =>
      page.evaluate(() => (window as unknown as { seen: Array<{ id: string; event: SessionEvent }> }).seen);
    await expect.poll(async () => (await seen()).some((m) => m.event.type === "done")).toBe(true);
    await postMessage(session, "two");
    await expect.poll(async () => (await seen()).filter((m) => m.event.type === "done").length).toBe(2);
    await expect.poll(async () => (await seen()).at(-1)?.event.type).toBe("session_status");
    const messages = await seen();
    expect(messages.map((m) => m.event.seq)).toEqual(messages.map((_, i) => i + 3));
    expect(messages.every((m) => m.id === String(m.event.seq))).toBe(true);
    expect(
      messages
        .filter((m) => m.event.type === "user_message")
        .map((m) => (m.event.data as { text: string }).text),
    ).toEqual(["two"]);
  });

  it("lists the person's sessions on the start page with their status from the server, and reopens them", async () => {
    const first = await scriptedSession([askReply("toolu_recent")]);
    const second = await scriptedSession([say("Done here.")]);
    const page = track(await openDevice(browser, second, "lister"));
    await page.getByRole("textbox", { name: "Message to the agent" }).fill("Tidy the docs");
    await page.getByRole("textbox", { name: "Message to the agent" }).press("Enter");
    await page.getByText("Done here.").waitFor();
    await postAs(first, "messages", { text: "Plan the release" });

    // A browser that never opened the first session lists it too: the list is the server's.
    const other = track(await (await browser.newContext({ reducedMotion: "reduce" })).newPage());
    await other.goto(`${baseUrl()}/`);
    const row = (session: { sessionId: string }) =>
      other.locator(`.inbox-session[data-session-id="${session.sessionId}"]`);
    await expect
      .poll(() => row(first).locator(".inbox-session-title").textContent())
      .toBe("Plan the release");
    await expect
      .poll(() => row(first).locator(".inbox-session-status").textContent())
      .toBe("Waiting for you");
    expect(await row(second).locator(".inbox-session-title").textContent()).toBe("Tidy the docs");
    await expect.poll(() => row(second).locator(".inbox-session-status").textContent()).toBe("Idle");

    await row(first).getByRole("button", { name: "Open Plan the release" }).click();
    await other.waitForURL(`${baseUrl()}/#/s/${first.sessionId}`);
    await other.locator(".connection[data-state=connected]").waitFor();
    await other.getByText("Which plan should I follow?", { exact: true }).waitFor();
    expect(await other.locator(".question-card").count()).toBe(1);
  });
});
