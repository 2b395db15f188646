import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import {
  askReply,
  baseUrl,
  launchBrowser,
  openDevice,
  say,
  screenshot,
  scriptedSession,
  typeMessage,
} from "./harness";

describe.skipIf(!hasChromium)("a question answered on one of two devices", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows options with their descriptions, collapses on both devices to the same receipt and carries on", async () => {
    const session = await scriptedSession([askReply("toolu_plan"), say("Going with the fast plan.")]);
    const laptop = await openDevice(browser, session, "laptop");
    // The phone joins through an answer link the laptop mints.
    await laptop.getByText("Open on another device").click();
    await laptop.getByRole("button", { name: "Create link" }).click();
    const field = laptop.getByLabel("Share link for this session");
    await expect.poll(() => field.inputValue()).toMatch(/token=eyJ/);
    const shown = await field.inputValue();
    expect(shown.startsWith(`${baseUrl()}/#/s/${session.sessionId}?token=`)).toBe(true);
    const phone = await openDevice(browser, { ...session, shareUrl: shown }, "phone");

    await typeMessage(laptop, "Plan the release");
    for (const page of [laptop, phone]) {
      await expect.poll(() => page.locator(".question-card").count()).toBe(1);
      await page.getByText("Which plan should I follow?", { exact: true }).waitFor();
      await page.getByText("Ship today with the basics", { exact: true }).waitFor();
    }
    await expect.poll(() => phone.locator(".status-bar").getAttribute("data-status")).toBe("awaiting_input");
    await screenshot(laptop, "question");

    // A lone single-choice question is answered by the click itself.
    await phone.getByLabel("Fast").click();

    await phone.locator(".receipt[data-outcome=answered]").waitFor();
    await laptop.locator(".receipt[data-outcome=answered]").waitFor();
    expect(await phone.locator(".receipt").textContent()).toBe("Answered");
    // The phone opened the session with an answer link, so the laptop's receipt names that link.
    expect(await laptop.locator(".receipt").textContent()).toMatch(
      /^Answered by answer link \(share link [0-9a-f]{8}\) on another device$/,
    );
    expect(await laptop.locator(".answer-summary dd").textContent()).toBe("Fast");
    for (const page of [laptop, phone]) {
      await page.getByText("Going with the fast plan.").waitFor();
      await expect.poll(() => page.locator(".status-bar").getAttribute("data-status")).toBe("idle");
    }
    await screenshot(laptop, "answered-on-another-device");
  });
});
