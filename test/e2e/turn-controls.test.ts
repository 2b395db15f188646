import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import { launchBrowser, openDevice, say, screenshot, scriptedSession, typeMessage } from "./harness";

const slow = (text: string) => say(text, { textChunkSize: 4, paceMs: 50 });
const LONG = "This reply takes a couple of seconds to stream, one small piece at a time, on purpose.";

describe.skipIf(!hasChromium)("turn controls", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows a message sent during a turn as queued, then runs it in order", async () => {
    const session = await scriptedSession([slow(LONG), say("And this answers the second.")]);
    const page = await openDevice(browser, session);
    await typeMessage(page, "first");
    await expect.poll(() => page.locator(".status-bar").getAttribute("data-status")).toBe("running");
    expect(await page.locator(".composer button[type=submit]").textContent()).toBe("Queue");
    await typeMessage(page, "second, while you work");
    await page.locator(".queued-message").getByText("second, while you work").waitFor();
    await screenshot(page, "queued");

    await page.getByText("And this answers the second.").waitFor();
    expect(await page.locator(".queued-message").count()).toBe(0);
    expect(await page.locator(".transcript .message .message-text").allTextContents()).toEqual([
      "first",
      LONG,
      "second, while you work",
      "And this answers the second.",
    ]);
  });

  it("cancels a running turn, keeping what was already said", async () => {
    const session = await scriptedSession([slow(LONG)]);
    const page = await openDevice(browser, session);
    await typeMessage(page, "start talking");
    await page.locator(".message.assistant").waitFor();
    await page.getByRole("button", { name: "Cancel turn" }).click();
    await page.getByText("Turn cancelled.").waitFor();
    await expect.poll(() => page.locator(".status-bar").getAttribute("data-status")).toBe("idle");
    expect(await page.getByRole("button", { name: "Cancel turn" }).isVisible()).toBe(false);
  });

  it("shows a failed turn with its error and retries the last message", async () => {
    const session = await scriptedSession([
      { content: [], error: { code: "invalid_request", message: "the model fell over" } },
      say("Second time lucky."),
    ]);
    const page = await openDevice(browser, session);
    await typeMessage(page, "please work");
    await expect.poll(() => page.locator(".status-bar").getAttribute("data-status")).toBe("failed");
    expect(await page.locator(".status-error").textContent()).toMatch(/the model fell over/);
    await screenshot(page, "failed");
    await page.getByRole("button", { name: "Retry" }).click();
    await page.getByText("Second time lucky.").waitFor();
    expect(await page.locator(".message.user .message-text").allTextContents()).toEqual([
      "please work",
      "please work",
    ]);
  });
});
