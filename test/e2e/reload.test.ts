import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import {
  askReply,
  launchBrowser,
  openDevice,
  say,
  screenshot,
  scriptedSession,
  typeMessage,
} from "./harness";

const LONG_TEXT = Array.from({ length: 12 }, (_, i) => `Sentence ${i + 1} of a slowly streamed reply.`).join(
  " ",
);

/** Seconds left on the page's countdown ("1:58 left" → 118). */
async function secondsLeft(page: Page): Promise<number> {
  const text = (await page.locator(".countdown-time").textContent()) ?? "";
  const match = /^(\d+):(\d\d) left$/.exec(text);
  if (!match) throw new Error(`unexpected countdown text "${text}"`);
  return Number(match[1]) * 60 + Number(match[2]);
}

describe.skipIf(!hasChromium)("reloading the page", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("resumes mid-stream with the whole transcript, then mid-question with the same card and countdown", async () => {
    const ask = askReply("toolu_reload");
    const session = await scriptedSession(
      [
        // ~50 paced text events: about three seconds of streaming to reload in the middle of.
        {
          content: [{ type: "text", text: LONG_TEXT }, ...ask.content.slice(1)],
          textChunkSize: 12,
          paceMs: 60,
        },
        say("Thanks, carrying on with Thorough."),
      ],
      { interactionTimeoutMs: 120_000 },
    );
    const page = await openDevice(browser, session);
    await typeMessage(page, "Stream something long");
    const agentText = page.locator(".message.assistant .message-text").first();
    await expect.poll(async () => ((await agentText.textContent()) ?? "").length).toBeGreaterThan(30);
    const before = (await agentText.textContent()) ?? "";
    expect(before.length).toBeLessThan(LONG_TEXT.length);
    await screenshot(page, "streaming");

    await page.reload();
    await page.locator(".connection[data-state=connected]").waitFor();
    await page.locator(".question-card").waitFor({ timeout: 15_000 });
    expect(await page.locator(".message.user .message-text").allTextContents()).toEqual([
      "Stream something long",
    ]);
    expect(await page.locator(".message.assistant .message-text").allTextContents()).toEqual([LONG_TEXT]);

    const shown = await secondsLeft(page);
    expect(shown).toBeGreaterThan(100);
    await page.reload();
    await page.locator(".question-card").waitFor();
    // The deadline is the server's: a reload shows the same time left, give or take the reload.
    expect(Math.abs((await secondsLeft(page)) - shown)).toBeLessThanOrEqual(3);
    expect(await page.locator(".question-card").count()).toBe(1);

    // A lone single-choice question is answered by the click itself.
    await page.getByLabel("Thorough").click();
    await page.getByText("Thanks, carrying on with Thorough.").waitFor();
    expect(await page.locator(".receipt").textContent()).toBe("Answered");
  });
});
