import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import { baseUrl, launchBrowser, openDevice, say, scriptedSession, typeMessage } from "./harness";

/** Seconds left on the card's countdown ("1:58 left" → 118). */
async function secondsLeft(page: Page, scope = ""): Promise<number> {
  const text = (await page.locator(`${scope} .approval-card .countdown-time`.trim()).textContent()) ?? "";
  const match = /^(\d+):(\d\d) left$/.exec(text);
  if (!match) throw new Error(`unexpected countdown text "${text}"`);
  return Number(match[1]) * 60 + Number(match[2]);
}

describe.skipIf(!hasChromium)("giving a card more time", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("moves the countdown on every device when one of them presses More time", async () => {
    const session = await scriptedSession(
      [
        {
          content: [
            { type: "tool_use", id: "toolu_more", name: "notes_write", input: { key: "k", text: "t" } },
          ],
        },
        say("Saved."),
      ],
      { interactionTimeoutMs: 120_000 },
    );
    const laptop = await openDevice(browser, session, "laptop");
    const phone = await openDevice(browser, session, "phone");
    await typeMessage(laptop, "Write a note");
    await laptop.locator(".approval-card").waitFor();
    await phone.locator(".approval-card").waitFor();
    expect(await secondsLeft(phone)).toBeLessThanOrEqual(120);

    // More time is one step from the decision, behind More….
    await laptop.locator(".approval-card").locator("summary", { hasText: "More…" }).click();
    await laptop.getByRole("button", { name: "More time (+10 min)" }).click();
    await phone.waitForFunction(() => {
      const text = document.querySelector(".approval-card .countdown-time")?.textContent ?? "";
      return /^1[12]:\d\d left$/.test(text);
    });
    expect(await secondsLeft(phone)).toBeGreaterThan(11 * 60);
    expect(await secondsLeft(laptop)).toBeGreaterThan(11 * 60);
    await laptop.getByRole("button", { name: "Approve", exact: true }).click();
    await phone.getByText("Saved.").waitFor();
  });

  it("moves the laptop's countdown when a phone's inbox presses More time, and the inbox's when the laptop does", async () => {
    const session = await scriptedSession(
      [
        {
          content: [
            { type: "tool_use", id: "toolu_inbox_more", name: "notes_write", input: { key: "k", text: "t" } },
          ],
        },
        say("Saved."),
      ],
      { interactionTimeoutMs: 120_000 },
    );
    const laptop = await openDevice(browser, session, "laptop");
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      reducedMotion: "reduce",
    });
    const phone = await context.newPage();
    await phone.goto(`${baseUrl()}/`);
    await phone.getByRole("status").filter({ hasText: "Live" }).waitFor();
    await typeMessage(laptop, "Write a note");
    const group = `.inbox-group[data-session-id="${session.sessionId}"]`;
    await phone.locator(`${group} .approval-card`).waitFor();

    await phone.locator(`${group} .approval-card`).locator("summary", { hasText: "More…" }).click();
    await phone.locator(group).getByRole("button", { name: "More time (+10 min)" }).click();
    await expect.poll(() => secondsLeft(laptop)).toBeGreaterThan(11 * 60);
    // The inbox hears of its own press through its stream, like any other device.
    await expect.poll(() => secondsLeft(phone, group)).toBeGreaterThan(11 * 60);

    await laptop.locator(".approval-card").locator("summary", { hasText: "More…" }).click();
    await laptop.getByRole("button", { name: "More time (+10 min)" }).click();
    await expect.poll(() => secondsLeft(phone, group)).toBeGreaterThan(21 * 60);
    await laptop.getByRole("button", { name: "Approve", exact: true }).click();
    await phone.locator(`${group} .receipt[data-outcome=approved]`).waitFor();
    await context.close();
  });
});
