import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import { launchBrowser, openDevice, say, scriptedSession, typeMessage } from "./harness";

/** Every WebSocket and EventSource URL the page opens, and every request URL, as Chromium's network log has them. */
function recordUrls(page: Page): { sockets: string[]; requests: string[] } {
  const seen = { sockets: [] as string[], requests: [] as string[] };
  page.on("websocket", (socket) => seen.sockets.push(socket.url()));
  page.on("request", (request) => seen.requests.push(request.url()));
  return seen;
}

describe.skipIf(!hasChromium)("the session token and URLs", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("never appears in a WebSocket or request URL, and leaves the address bar once read", async () => {
    const session = await scriptedSession([say("First."), say("Second.")]);
    const context = await browser.newContext();
    const page = await context.newPage();
    const seen = recordUrls(page);
    await page.goto(session.shareUrl);
    await page.locator(".connection[data-state=connected]").waitFor();
    expect(page.url()).not.toContain(session.token);
    expect(page.url()).toContain(`#/s/${session.sessionId}`);

    await typeMessage(page, "hello");
    await page.getByText("First.").waitFor();
    // A reload reconnects with the token this tab kept, still without putting it in a URL.
    await page.reload();
    await page.locator(".connection[data-state=connected]").waitFor();
    await typeMessage(page, "again");
    await page.getByText("Second.").waitFor();

    expect(seen.sockets.length).toBeGreaterThanOrEqual(2);
    for (const url of seen.sockets) {
      expect(url).toContain("ticket=");
      expect(url).not.toContain(session.token);
      expect(url).not.toContain(encodeURIComponent(session.token));
    }
    const withToken = [...seen.sockets, ...seen.requests].filter(
      (url) => url.includes(session.token) || url.includes(encodeURIComponent(session.token)),
    );
    // The share link itself is the one URL allowed to hold it (in its fragment, never sent).
    expect(withToken.every((url) => url === session.shareUrl)).toBe(true);
    expect(page.url()).not.toContain(session.token);
    await context.close();
  });

  it("keeps the device working when a page opens from a fresh share link", async () => {
    const session = await scriptedSession([say("Hi there.")]);
    const page = await openDevice(browser, session);
    expect(page.url()).not.toContain("token=");
    await typeMessage(page, "hi");
    await page.getByText("Hi there.").waitFor();
    await page.context().close();
  });
});
