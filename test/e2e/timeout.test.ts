import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import { launchBrowser, openDevice, say, screenshot, scriptedSession, typeMessage } from "./harness";

describe.skipIf(!hasChromium)("an unanswered prompt", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("turns red while it runs out and becomes 'timed out' (never 'denied') when the server's deadline passes", async () => {
    const session = await scriptedSession(
      [
        {
          content: [
            { type: "tool_use", id: "toolu_slow", name: "notes_write", input: { key: "k", text: "t" } },
          ],
        },
        say("No answer came, so I left the notes alone."),
      ],
      { interactionTimeoutMs: 3_000 },
    );
    const page = await openDevice(browser, session);
    await typeMessage(page, "Write a note");
    const card = page.locator(".approval-card");
    await card.waitFor();
    expect(await card.locator(".countdown").getAttribute("data-urgency")).toBe("urgent");

    await card.locator(".receipt[data-outcome=timed_out]").waitFor({ timeout: 10_000 });
    const receipt = (await card.locator(".receipt").textContent()) ?? "";
    expect(receipt).toMatch(/^Timed out/);
    expect(receipt).not.toMatch(/denied|another device/i);
    expect(await card.getByRole("button").count()).toBe(0);
    await page.getByText("No answer came, so I left the notes alone.").waitFor();
    expect(await page.locator(".tool-result-text").textContent()).toMatch(/timed out/i);
    await screenshot(page, "timed-out");
  });

  it("stops offering answers once its countdown reaches zero, before the timeout event arrives", async () => {
    const session = await scriptedSession([
      {
        content: [
          { type: "tool_use", id: "toolu_late", name: "notes_write", input: { key: "k", text: "t" } },
        ],
      },
    ]);
    const page = await openDevice(browser, session);
    await typeMessage(page, "Write a note");
    const card = page.locator(".approval-card");
    await card.waitFor();
    expect(await card.getByRole("button", { name: "Approve", exact: true }).isEnabled()).toBe(true);

    // This page's clock runs past the ten-minute deadline; the server's alarm is still far away.
    await page.evaluate(() => {
      const real = Date.now.bind(Date);
      Date.now = () => real() + 11 * 60_000;
    });
    await card.locator(".countdown[data-urgency=expired]").waitFor();
    expect(await card.getByRole("button", { name: "Approve", exact: true }).isDisabled()).toBe(true);
    expect(await card.getByRole("button", { name: "Deny", exact: true }).isDisabled()).toBe(true);
    expect(await card.locator(".action-line").textContent()).toMatch(/Time is up/);
    await card.focus();
    await page.keyboard.press("Enter");
    expect(await card.locator(".action-line").textContent()).not.toMatch(/Sending|Sent/);
  });
});
