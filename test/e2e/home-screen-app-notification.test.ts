// A phone deciding from a notification, as the README shows it: an approval's push reaches the real
// service worker in Chromium at a phone's size; a headless browser draws no notification, so the
// test draws what the worker showed (registration.getNotifications(): title, body, actions) in a
// frame on the inbox page, presses Approve through the worker's own notificationclick handler, and
// takes the inbox's card as it resolves. The screenshots land in docs/screenshots with
// UPDATE_SCREENSHOTS=1, like every other.
import type { Browser, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PushMessage } from "../../src/notify/push-sender";
import { hasChromium } from "./browser-env";
import { asPerson, baseUrl, launchBrowser, screenshot } from "./harness";
import { decryptPush, type PushService, startPushService, subscriptionKeys } from "./push-service";

const PHONE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  reducedMotion: "reduce",
} as const;

const COMMAND = "git status --short";

/** The notification tagged `tag` as the worker shows it, drawn in a captioned frame above the session's cards. */
function drawNotification(page: Page, tag: string, sessionId: string) {
  return page.evaluate(
    async ({ tag, sessionId }) => {
      const registration = await navigator.serviceWorker.ready;
      const [shown] = await registration.getNotifications({ tag });
      document.getElementById("notification-frame")?.remove();
      if (!shown) return null;
      const actions = (shown as Notification & { actions: Array<{ action: string; title: string }> }).actions;
      // Drawn with the CSSOM (the page's CSP allows no inline style attribute, and needs none here).
      const element = (tagName: string, text: string, style: Partial<CSSStyleDeclaration>) => {
        const made = document.createElement(tagName);
        made.textContent = text;
        Object.assign(made.style, style);
        return made;
      };
      const frame = element("figure", "", {
        margin: "0 0 1em",
        padding: "0.75em",
        borderRadius: "14px",
        background: "#eef1f6",
        border: "1px solid #b8c2d3",
        font: "14px system-ui, sans-serif",
        color: "#1b1f27",
      });
      frame.id = "notification-frame";
      const card = element("div", "", {
        background: "#ffffff",
        borderRadius: "10px",
        padding: "0.6em 0.75em",
        boxShadow: "0 1px 3px rgba(0,0,0,0.2)",
      });
      card.append(
        element("div", "Parley", { fontSize: "12px", color: "#5a6372" }),
        element("strong", shown.title, { display: "block", margin: "0.2em 0" }),
        element("div", shown.body, { whiteSpace: "pre-line", overflowWrap: "anywhere" }),
      );
      if (actions.length > 0) {
        const row = element("div", "", { display: "flex", gap: "0.5em", marginTop: "0.6em" });
        for (const action of actions)
          row.append(
            element("span", action.title, {
              flex: "1",
              textAlign: "center",
              padding: "0.4em",
              borderRadius: "8px",
              background: "#e3e8f0",
              fontWeight: "600",
            }),
          );
        card.append(row);
      }
      frame.append(
        card,
        element(
          "figcaption",
          "The notification's title, body and actions as the service worker showed them",
          {
            marginTop: "0.5em",
            fontSize: "12px",
            color: "#5a6372",
          },
        ),
      );
      const group = document.querySelector(`.inbox-group[data-session-id="${sessionId}"]`);
      if (group) group.before(frame);
      else document.body.prepend(frame);
      frame.scrollIntoView({ block: "start" });
      return { title: shown.title, body: shown.body, actions: actions.map((action) => action.title) };
    },
    { tag, sessionId },
  );
}

/** The service worker's registration id, once it is active for the page. */
async function activeRegistration(cdp: CDPSession): Promise<string> {
  const registrations: Array<{ registrationId: string; scopeURL: string }> = [];
  const activated = new Set<string>();
  cdp.on("ServiceWorker.workerRegistrationUpdated", (event) => registrations.push(...event.registrations));
  cdp.on("ServiceWorker.workerVersionUpdated", (event) => {
    for (const version of event.versions)
      if (version.status === "activated") activated.add(version.registrationId);
  });
  await cdp.send("ServiceWorker.enable");
  await expect.poll(() => registrations.some((r) => r.scopeURL.startsWith(baseUrl()))).toBe(true);
  const id = registrations.find((r) => r.scopeURL.startsWith(baseUrl()))?.registrationId ?? "";
  await expect.poll(() => activated.has(id)).toBe(true);
  return id;
}

describe.skipIf(!hasChromium)("a phone deciding from a notification (chromium)", () => {
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

  it("shows the approval's notification with Approve and Deny, and its Approve resolves the card in the inbox", async () => {
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
        body: JSON.stringify({
          agent: { kind: "external", name: "Claude Code", title: "Tidy the repo", cwd: "/home/dev/shop" },
        }),
      });
      const session = (await created.json()) as { sessionId: string; agentToken: string };
      const phone = await (await browser.newContext(PHONE)).newPage();
      await phone.context().grantPermissions(["notifications"], { origin: baseUrl() });
      phone.on("pageerror", (error) => console.error("[phone] page error:", error));
      await phone.goto(`${baseUrl()}/#/inbox`);
      const cdp = await phone.context().newCDPSession(phone);
      const registrationId = await activeRegistration(cdp);

      const opened = await fetch(`${baseUrl()}/api/sessions/${session.sessionId}/interactions`, {
        method: "POST",
        headers: { authorization: `Bearer ${session.agentToken}`, "content-type": "application/json" },
        body: JSON.stringify({
          kind: "approval",
          request: { toolName: "Bash", input: { command: COMMAND } },
          cwd: "/home/dev/shop",
        }),
      });
      expect(opened.status, await opened.clone().text()).toBe(201);
      const { interactionId } = (await opened.json()) as { interactionId: string };
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
      const group = phone.locator(`.inbox-group[data-session-id="${session.sessionId}"]`);
      await group.locator(".approval-card").waitFor();

      // Handed to the real worker as the push service would; sent again until shown (Chromium now
      // and then drops a push handed over through DevTools while busy, as a push service retries).
      await expect
        .poll(
          async () => {
            await cdp.send("ServiceWorker.deliverPushMessage", {
              origin: baseUrl(),
              registrationId,
              data: JSON.stringify(message),
            });
            return drawNotification(phone, interactionId, session.sessionId);
          },
          { interval: 500, timeout: 15_000 },
        )
        .toEqual({ title: message?.title, body: message?.body, actions: ["Approve", "Deny"] });
      expect(message?.body.split("\n")[0]).toBe(`$ ${COMMAND}`);
      await screenshot(phone, "notification-approval-phone");

      // No DevTools command clicks a notification: the worker is handed the click its browser
      // would dispatch for Approve, on the notification it shows, and its own handler answers.
      const worker =
        phone.context().serviceWorkers()[0] ?? (await phone.context().waitForEvent("serviceworker"));
      await worker.evaluate(async (tag) => {
        type Click = new (type: string, init: { notification: Notification; action: string }) => Event;
        const scope = self as unknown as {
          registration: ServiceWorkerRegistration;
          NotificationEvent: Click;
          dispatchEvent(event: Event): boolean;
        };
        const [notification] = await scope.registration.getNotifications({ tag });
        if (!notification) throw new Error(`no notification tagged ${tag}`);
        try {
          scope.dispatchEvent(
            new scope.NotificationEvent("notificationclick", { notification, action: "approve" }),
          );
        } catch {}
      }, interactionId);

      const receipt = group.locator(".receipt");
      await expect
        .poll(() => receipt.textContent(), { timeout: 15_000 })
        .toBe("Approved from a notification");
      // The worker replaced the notification with what it answered, without actions.
      await expect
        .poll(() => drawNotification(phone, interactionId, session.sessionId))
        .toEqual({ title: "Approved", body: "Answered from the notification", actions: [] });
      await receipt.scrollIntoViewIfNeeded();
      await screenshot(phone, "notification-approved-phone");
      await phone.context().close();
    } finally {
      await fetch(`${baseUrl()}/api/inbox/push-subscriptions/${deviceId}`, {
        method: "DELETE",
        headers: asPerson(),
      });
    }
  });
});
