import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import { baseUrl, launchBrowser, screenshot, typeMessage } from "./harness";

// Each test plays a whole tour: four to six model replies, streamed at the demo's reading pace (its
// text and each tool call's input arrive 8 characters every 15 ms, some 2 s for the first question),
// and a card's keys ready a second after it shows. On a busy two-core machine that outgrew the
// suite's 30 s, so each test has a minute.
const TOUR_MS = 60_000;

describe.skipIf(!hasChromium)("the offline demo model", { timeout: TOUR_MS }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Starts a session from the front page and answers the demo's questions: tour `key`, on a laptop. */
  async function pickTour(message: string, key: string): Promise<Page> {
    const page = await (await browser.newContext({ reducedMotion: "reduce" })).newPage();
    await page.goto(baseUrl());
    await page.getByRole("button", { name: "Start a session" }).click();
    await page.locator(".connection[data-state=connected]").waitFor();
    await typeMessage(page, message);
    await page.locator(".question-card").waitFor();
    // A new card's answering keys count from its first second on (data-keys-ready).
    await page.locator(".question-card:focus[data-keys-ready]").waitFor();
    await page.keyboard.press(key);
    await page.keyboard.press("1");
    return page;
  }

  it("starts from the front page, says it is the demo, and plays through with the keyboard alone", async () => {
    const page = await (await browser.newContext({ reducedMotion: "reduce" })).newPage();
    await page.goto(baseUrl());
    await page.getByRole("button", { name: "Start a session" }).click();
    await page.locator(".connection[data-state=connected]").waitFor();
    // The page took the token out of the address bar once it read it.
    expect(new URL(page.url()).hash).toMatch(/^#\/s\/[0-9a-f]{32}$/);
    await page.locator(".demo-notice").waitFor();
    expect(await page.locator(".demo-notice").textContent()).toMatch(/Demo model/);

    await typeMessage(page, "Show me around");
    const question = page.locator(".question-card");
    await question.waitFor();
    await question.locator(":focus").or(page.locator(".question-card:focus")).first().waitFor();
    await page.locator(".question-card[data-keys-ready]").waitFor();
    await screenshot(page, "demo-question");
    // First question (single choice): key 2. Second (multi-select): keys 1 and 2 once it is current.
    await page.keyboard.press("2");
    await page.keyboard.press("1");
    await page.keyboard.press("2");
    await expect.poll(() => question.getByRole("button", { name: "Submit answers" }).isEnabled()).toBe(true);
    await page.keyboard.press("Enter");
    await question.locator(".receipt[data-outcome=answered]").waitFor();
    expect(await question.locator(".answer-summary dd").allTextContents()).toEqual([
      "Notes",
      "Laptop, Phone",
    ]);

    const approval = page.locator(".approval-card");
    await approval.waitFor();
    await page.locator(".approval-card:focus[data-keys-ready]").waitFor();
    // Enter on the card moves to Approve; only Enter on the button approves.
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await approval.locator(".receipt[data-outcome=approved]").waitFor();
    await expect.poll(() => page.locator(".status-bar").getAttribute("data-status")).toBe("idle");
    await screenshot(page, "demo-done");
  });

  it("shows a form when Forms is picked, checked on the page and answered with the keyboard", async () => {
    const page = await pickTour("Show me forms", "3");
    await page.keyboard.press("Enter");

    const form = page.locator(".form-card");
    await form.waitFor();
    expect(await form.getByLabel("Guests").inputValue()).toBe("2");
    await form.getByLabel("Name").fill("Ada");
    await form.getByLabel("Email").fill("ada@example.com");
    await form.getByLabel(/^Day/).fill("2026-12-24");
    await form.getByLabel("Terrace").check();
    await form.getByLabel("Flowers").check();
    await page.locator(".form-card[data-keys-ready]").waitFor();
    await form.getByLabel("Name").press("Enter");
    await form.locator(".receipt[data-outcome=answered]").waitFor();
    await page.getByText("That was the form tour.", { exact: false }).waitFor();
    await screenshot(page, "demo-form");
  });

  it("plays the outage tour offline: the model is overloaded twice, the page says when it retries, and the turn completes", async () => {
    const page = await pickTour("Show me what happens when the model is down", "4");
    const question = page.locator(".question-card");
    await expect.poll(() => question.getByRole("button", { name: "Submit answers" }).isEnabled()).toBe(true);
    await page.keyboard.press("Enter");

    const status = page.locator(".status-bar");
    const retryNow = status.getByRole("button", { name: "Retry now" });
    for (const attempt of [1, 2]) {
      await page
        .getByText(
          new RegExp(`unavailable \\(overloaded: Overloaded\\); retrying at .* \\(attempt ${attempt}\\)`),
        )
        .waitFor();
      await retryNow.waitFor();
      expect(await status.locator(".status-text").textContent()).toMatch(
        /^Model unavailable — retrying at \d/,
      );
      // The backoff doubles: about 5 s before the first retry, 10 s before the second.
      // (The page corrects for the server's clock, measured to within a network round trip.)
      const left = (await status.getByRole("timer").textContent()) ?? "";
      const seconds = Number(/^\(in 0:(\d\d)\)$/.exec(left)?.[1]);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(attempt === 1 ? 7 : 12);
      if (attempt === 1) await screenshot(page, "demo-outage");
      await retryNow.click();
    }
    await page.getByText(/^I'm back\. The model was overloaded/).waitFor();
    await expect.poll(() => status.getAttribute("data-status")).toBe("idle");
    expect(await retryNow.isVisible()).toBe(false);
    expect(await status.getByRole("timer").isVisible()).toBe(false);
  });

  it("plays the subagent tour offline: the researcher takes over, delegates a note, and hands back", async () => {
    const page = await (await browser.newContext({ reducedMotion: "reduce" })).newPage();
    await page.goto(baseUrl());
    await page.getByRole("button", { name: "Start a session" }).click();
    await page.locator(".connection[data-state=connected]").waitFor();

    await typeMessage(page, "Please research Durable Objects");
    const question = page.locator(".question-card");
    await question.waitFor();
    await expect.poll(() => page.locator(".agent-stack").textContent()).toBe("Talking toMainresearcher");
    // A lone single-choice question is answered by the click itself.
    await question.getByLabel("Overview").click();

    await page.getByText(/You're talking to me, the researcher, now/).waitFor();
    const box = page.getByRole("textbox", { name: "Message to researcher" });
    await expect.poll(() => box.isEnabled()).toBe(true);
    await box.fill("They keep state at the edge");
    await box.press("Enter");

    const approval = page.locator(".approval-card");
    await approval.waitFor();
    await expect
      .poll(() => page.locator(".agent-stack").textContent())
      .toBe("Talking toMainresearchernote-keeper");
    await screenshot(page, "demo-subagents");
    await approval.getByRole("button", { name: "Approve", exact: true }).click();

    await page.getByText(/^The researcher reported back: “Focus: Overview\./).waitFor();
    await expect.poll(() => page.locator(".agent-stack").isHidden()).toBe(true);
    await expect.poll(() => page.locator(".status-bar").getAttribute("data-status")).toBe("idle");
  });
});
