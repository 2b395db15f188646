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
});
