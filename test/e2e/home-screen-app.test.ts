// Parley as an app on the home screen, in Chromium: the manifest is served and valid and the page
// is installable; and an approval's push — sent by the server to a stand-in push service on a
// loopback port, decrypted with the subscription's own keys — reaches the real service worker,
// whose notification shows Approve and Deny, and whose approve action answers the card.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type BrowserContext, type CDPSession, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { PushMessage } from "../../src/notify/push-sender";
import type { ExternalInteraction } from "../../src/protocol/external/external";
import type { DecisionPage } from "../../src/protocol/inbox/decisions";
import { CHROMIUM_ARGS, CHROMIUM_PATH, hasChromium } from "./browser-env";
import { asPerson, baseUrl, launchBrowser } from "./harness";
import { decryptPush, type PushService, startPushService, subscriptionKeys } from "./push-service";

let contexts: BrowserContext[] = [];
afterEach(async () => {
  for (const context of contexts) await context.close();
  contexts = [];
});

async function inboxPage(browser: Browser): Promise<{ page: Page; cdp: CDPSession }> {
  const context = await browser.newContext();
  contexts.push(context);
  await context.grantPermissions(["notifications"], { origin: baseUrl() });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error("[app page] page error:", error));
  await page.goto(`${baseUrl()}/#/inbox`);
  return { page, cdp: await context.newCDPSession(page) };
}

/** The width and height a PNG's header states. */
function pngSize(bytes: Buffer): [number, number] {
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe.skipIf(!hasChromium)("Parley as an app on the home screen (chromium)", () => {
  let browser: Browser;
  let service: PushService;
  beforeAll(async () => {
    browser = await launchBrowser({ notifications: true });
    service = await startPushService();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it("serves a valid manifest with its icons, the page registers as installable, and its shell is kept for offline starts", async () => {
    const served = await fetch(`${baseUrl()}/manifest.webmanifest`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
    // A profile of its own: Chromium installs nothing from an incognito context, which other contexts are.
    const profile = await mkdtemp(join(tmpdir(), "parley-app-profile-"));
    const persistent = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    const page = persistent.pages()[0] ?? (await persistent.newPage());
    await page.goto(`${baseUrl()}/#/inbox`);
    const cdp = await persistent.newCDPSession(page);
    const manifest = await cdp.send("Page.getAppManifest");
    expect(manifest.errors).toEqual([]);
    expect(manifest.url).toBe(`${baseUrl()}/manifest.webmanifest`);
    const parsed = JSON.parse(manifest.data ?? "{}") as {
      display: string;
      start_url: string;
      icons: Array<{ src: string; sizes: string; purpose: string }>;
    };
    expect(parsed).toMatchObject({ name: "Parley", display: "standalone", start_url: "/#/inbox" });
    for (const purpose of ["any", "maskable"]) {
      for (const size of [192, 512]) {
        const icon = parsed.icons.find((i) => i.purpose === purpose && i.sizes === `${size}x${size}`);
        expect(icon, `${purpose} ${size}`).toBeDefined();
        const png = Buffer.from(await (await fetch(`${baseUrl()}${icon?.src}`)).arrayBuffer());
        expect(pngSize(png)).toEqual([size, size]);
      }
    }
    const touch = await page.locator('link[rel="apple-touch-icon"]').getAttribute("href");
    expect(pngSize(Buffer.from(await (await fetch(`${baseUrl()}${touch}`)).arrayBuffer()))).toEqual([
      180, 180,
    ]);
    // Installable once the service worker that keeps the shell controls the page.
    await expect
      .poll(async () => (await cdp.send("Page.getInstallabilityErrors")).installabilityErrors, {
        timeout: 15_000,
      })
      .toEqual([]);
    // The offline shell: the worker keeps the page and its script and styles for a start with no network.
    await expect
      .poll(
        () =>
          page.evaluate(async () => {
            const kept = await Promise.all(["/", "/app.js", "/style.css"].map((path) => caches.match(path)));
            return kept.map((response) => response?.status ?? null);
          }),
        { timeout: 15_000 },
      )
      .toEqual([200, 200, 200]);
    await persistent.close();
    await rm(profile, { recursive: true, force: true });
  });

  it("shows Approve and Deny on a low approval's notification, and the approve action answers the card with no page of it open", async () => {
    const keys = await subscriptionKeys();
    const deviceId = `phone-${Math.random().toString(36).slice(2, 10)}`;
    const subscribed = await fetch(`${baseUrl()}/api/inbox/push-subscriptions`, {
      method: "POST",
      headers: { ...asPerson(), "content-type": "application/json" },
      body: JSON.stringify({
        deviceId,
        subscription: {
          endpoint: `${service.origin}/push/${deviceId}`,
          expirationTime: null,
          keys: keys.json,
        },
      }),
    });
    expect(subscribed.status, await subscribed.clone().text()).toBe(201);
    try {
      const created = await fetch(`${baseUrl()}/api/sessions`, {
        method: "POST",
        headers: { ...asPerson(), "content-type": "application/json" },
        body: JSON.stringify({ agent: { kind: "external", name: "Claude Code" } }),
      });
      const session = (await created.json()) as { sessionId: string; agentToken: string };
      const agent = { authorization: `Bearer ${session.agentToken}`, "content-type": "application/json" };
      const opened = await fetch(`${baseUrl()}/api/sessions/${session.sessionId}/interactions`, {
        method: "POST",
        headers: agent,
        body: JSON.stringify({
          kind: "approval",
          request: { toolName: "Bash", input: { command: "ls -la" } },
          cwd: "/home/dev/project",
        }),
      });
      expect(opened.status, await opened.clone().text()).toBe(201);
      const { interactionId } = (await opened.json()) as { interactionId: string };

      // The server's push, as the push service received it, decrypted as the browser would.
      let message: PushMessage | undefined;
      await expect
        .poll(
          async () => {
            const all = await Promise.all(
              service.received.map(async (body) => (await decryptPush(body, keys)) as PushMessage),
            );
            message = all.find((m) => m.interactionId === interactionId);
            return message !== undefined;
          },
          { timeout: 20_000 },
        )
        .toBe(true);
      expect(message?.actions?.map((a) => a.action)).toEqual(["approve", "deny"]);
      expect(message?.answerToken).toEqual(expect.any(String));

      // Handed to the real service worker as the push service would.
      const { page, cdp } = await inboxPage(browser);
      const registrations: Array<{ registrationId: string; scopeURL: string }> = [];
      const activated = new Set<string>();
      cdp.on("ServiceWorker.workerRegistrationUpdated", (event) =>
        registrations.push(...event.registrations),
      );
      cdp.on("ServiceWorker.workerVersionUpdated", (event) => {
        for (const version of event.versions)
          if (version.status === "activated") activated.add(version.registrationId);
      });
      await cdp.send("ServiceWorker.enable");
      await expect.poll(() => registrations.some((r) => r.scopeURL.startsWith(baseUrl()))).toBe(true);
      const registrationId =
        registrations.find((r) => r.scopeURL.startsWith(baseUrl()))?.registrationId ?? "";
      await expect.poll(() => activated.has(registrationId)).toBe(true);
      const shown = () =>
        page.evaluate(async (tag) => {
          const registration = await navigator.serviceWorker.ready;
          return (await registration.getNotifications({ tag })).map((n) => ({
            title: n.title,
            actions: (n as Notification & { actions: Array<{ action: string; title: string }> }).actions.map(
              (a) => a.action,
            ),
          }));
        }, interactionId);
      // Chromium now and then drops a push handed over through DevTools while busy: sent again
      // until shown, as a push service retries (the same tag replaces the notification).
      await expect
        .poll(
          async () => {
            await cdp.send("ServiceWorker.deliverPushMessage", {
              origin: baseUrl(),
              registrationId,
              data: JSON.stringify(message),
            });
            return shown();
          },
          { interval: 500, timeout: 15_000 },
        )
        .toEqual([{ title: message?.title, actions: ["approve", "deny"] }]);

      // No DevTools command clicks a notification: the worker is handed the click event its
      // browser would dispatch for the Approve button, on the notification it shows.
      const worker =
        page.context().serviceWorkers()[0] ?? (await page.context().waitForEvent("serviceworker"));
      await worker.evaluate(async (tag) => {
        // The worker's own globals (this file is typed for pages): its registration and event class.
        type Click = new (type: string, init: { notification: Notification; action: string }) => Event;
        const scope = self as unknown as {
          registration: ServiceWorkerRegistration;
          NotificationEvent: Click;
          dispatchEvent(event: Event): boolean;
        };
        const [notification] = await scope.registration.getNotifications({ tag });
        if (!notification) throw new Error(`no notification tagged ${tag}`);
        const click = new scope.NotificationEvent("notificationclick", { notification, action: "approve" });
        // An event the page dispatches may not extend its life (waitUntil throws); the handler's
        // answer is already on its way by then, and the test waits for the card below.
        try {
          scope.dispatchEvent(click);
        } catch {}
      }, interactionId);

      await expect
        .poll(
          async () => {
            const response = await fetch(
              `${baseUrl()}/api/sessions/${session.sessionId}/interactions/${interactionId}`,
              { headers: agent },
            );
            return ((await response.json()) as ExternalInteraction).resolution?.outcome ?? null;
          },
          { timeout: 15_000 },
        )
        .toBe("approved");
      await expect
        .poll(
          async () => {
            const response = await fetch(`${baseUrl()}/api/decisions?session=${session.sessionId}`, {
              headers: asPerson(),
            });
            const page = (await response.json()) as DecisionPage;
            return page.decisions.find((d) => d.interactionId === interactionId)?.decidedBy.device ?? null;
          },
          { timeout: 15_000 },
        )
        .toBe("push");
      // The token answered once: a second use is refused.
      const again = await fetch(`${baseUrl()}/api/push/answer`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: message?.answerToken, decision: "deny" }),
      });
      expect(again.status).toBe(409);
    } finally {
      await fetch(`${baseUrl()}/api/inbox/push-subscriptions/${deviceId}`, {
        method: "DELETE",
        headers: asPerson(),
      });
    }
  });
});
