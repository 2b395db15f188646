// Parley started from the home screen with no network, in Chromium at a phone's size: once the
// service worker that keeps the shell is installed, a reload and a new page at the manifest's
// start_url show the app itself — its heading, and words that say it is offline — never the
// browser's error page; and it loads the inbox by itself once the network is back.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import { baseUrl, launchBrowser } from "./harness";

const PHONE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  reducedMotion: "reduce",
} as const;

/** The manifest's start_url, as the home-screen icon opens it. */
const START_URL = "/#/inbox";

/** What the app shows: its heading, its connection line and its alert; null for a page that is not the app. */
function appShown(page: Page) {
  return page.evaluate(() => ({
    heading: document.querySelector(".inbox-header h1")?.textContent ?? null,
    connection: document.querySelector(".inbox-connection")?.textContent ?? null,
    alert: document.querySelector(".inbox-alert")?.textContent ?? null,
  }));
}

describe.skipIf(!hasChromium)("Parley started offline from the home screen (chromium, phone)", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ serviceWorker: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows its own shell, saying it is offline, on a reload and at the start URL, and loads once back online", async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    page.on("pageerror", (error) => console.error("[phone] page error:", error));
    await page.goto(`${baseUrl()}${START_URL}`);
    await expect.poll(async () => (await appShown(page)).connection, { timeout: 15_000 }).toBe("Live");
    // Installed: the worker controls the page and keeps the shell.
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), {
        timeout: 15_000,
      })
      .toBe(`${baseUrl()}/sw.js`);
    await expect
      .poll(
        () =>
          page.evaluate(async () => {
            const kept = await Promise.all(["/", "/app.js", "/style.css"].map((path) => caches.match(path)));
            return kept.every((response) => response?.status === 200);
          }),
        { timeout: 15_000 },
      )
      .toBe(true);

    await context.setOffline(true);
    // No network for the page: the server is out of reach.
    expect(
      await page.evaluate(() =>
        fetch("/api/notify").then(
          () => "answered",
          () => "failed",
        ),
      ),
    ).toBe("failed");

    const offline = {
      heading: "Parley",
      connection: "Offline",
      alert: "You are offline. Your cards load here as soon as the network is back.",
    };
    await page.reload();
    await expect.poll(() => appShown(page)).toEqual(offline);
    const started = await context.newPage();
    await started.goto(`${baseUrl()}${START_URL}`);
    await expect.poll(() => appShown(started)).toEqual(offline);
    expect(await started.title()).toBe("Parley");

    // Back online: the inbox loads by itself, and the offline words are gone.
    await context.setOffline(false);
    await expect
      .poll(() => appShown(started), { timeout: 15_000 })
      .toEqual({ heading: "Parley", connection: "Live", alert: "" });
    await context.close();
  });
});
