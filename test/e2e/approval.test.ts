import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import {
  launchBrowser,
  openDevice,
  type Reply,
  say,
  screenshot,
  scriptedSession,
  typeMessage,
} from "./harness";

const writeNote = (id: string, key: string): Reply => ({
  content: [{ type: "tool_use", id, name: "notes_write", input: { key, text: `note ${key}` } }],
});

const card = (page: Page, toolCallId: string) =>
  page.locator(`.tool-card[data-tool-call-id="${toolCallId}"]`);

describe.skipIf(!hasChromium)("tool approval through the page", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("approves, denies with a reason, and always allows so the next call runs without asking", async () => {
    const session = await scriptedSession([
      writeNote("toolu_w1", "first"),
      writeNote("toolu_w2", "second"),
      writeNote("toolu_w3", "third"),
      writeNote("toolu_w4", "fourth"),
      say("All four notes handled."),
    ]);
    const page = await openDevice(browser, session);
    await typeMessage(page, "Write some notes");

    const first = card(page, "toolu_w1");
    await first.locator(".approval-card").waitFor();
    expect(await first.locator(".approval-card .tool-args").textContent()).toBe(
      JSON.stringify({ key: "first", text: "note first" }, null, 2),
    );
    await screenshot(page, "approval");
    await first.getByRole("button", { name: "Approve", exact: true }).click();
    await first.locator(".receipt[data-outcome=approved]").waitFor();
    await expect.poll(() => first.getAttribute("data-phase")).toBe("done");
    expect(await first.locator(".tool-result-text").textContent()).toMatch(/Saved note "first"/);

    const second = card(page, "toolu_w2");
    await second.getByLabel("Reason for denying (optional)").fill("not that one");
    await second.getByRole("button", { name: "Deny", exact: true }).click();
    await second.locator(".receipt[data-outcome=denied]").waitFor();
    expect(await second.locator(".receipt").textContent()).toBe("Denied: “not that one”");
    await expect.poll(() => second.getAttribute("data-phase")).toBe("error");
    expect(await second.locator(".tool-result-text").textContent()).toBe(
      "User denied tool execution. Reason: not that one",
    );

    const third = card(page, "toolu_w3");
    // Anything beyond the decision itself is one step away, behind More….
    await third.locator("summary", { hasText: "More…" }).click();
    await third.getByRole("button", { name: "Always allow (this session)" }).click();
    await third.locator(".receipt[data-outcome=approved]").waitFor();
    expect(await third.locator(".receipt").textContent()).toBe("Approved · always allowed this session");

    await page.getByText("All four notes handled.").waitFor();
    const fourth = card(page, "toolu_w4");
    expect(await fourth.getAttribute("data-phase")).toBe("done");
    expect(await fourth.locator(".approval-card").count()).toBe(0);
    expect(await page.locator(".approval-card").count()).toBe(3);
    await screenshot(page, "approvals-resolved");
  });

  it("answers from the keyboard: Enter moves to Approve and a second Enter approves, Esc moves to Deny and Enter denies", async () => {
    const session = await scriptedSession([
      writeNote("toolu_k1", "one"),
      writeNote("toolu_k2", "two"),
      say("Done with keys."),
    ]);
    const page = await openDevice(browser, session);
    await typeMessage(page, "Use the keyboard");
    await card(page, "toolu_k1").locator(".approval-card:focus[data-keys-ready]").waitFor();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Approve");
    await page.keyboard.press("Enter");
    await card(page, "toolu_k1").locator(".receipt[data-outcome=approved]").waitFor();
    await card(page, "toolu_k2").locator(".approval-card:focus[data-keys-ready]").waitFor();
    await page.keyboard.press("Escape");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Deny");
    await page.keyboard.press("Enter");
    await card(page, "toolu_k2").locator(".receipt[data-outcome=denied]").waitFor();
    await page.getByText("Done with keys.").waitFor();
    // The answered card's focus moves on to the message box, ready for the next message.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Message to the agent");
  });

  it("keeps focus in the message box after Send is clicked", async () => {
    const session = await scriptedSession([say("Heard you.")]);
    const page = await openDevice(browser, session);
    await page.getByRole("textbox", { name: "Message to the agent" }).fill("clicked, not typed");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByText("Heard you.").waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
      "Message to the agent",
    );
  });
});
