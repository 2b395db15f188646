import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import { launchBrowser, openDevice, postMessage, type Reply, say, scriptedSession } from "./harness";

const writeNote = (id: string): Reply => ({
  content: [{ type: "tool_use", id, name: "notes_write", input: { key: "k", text: "v" } }],
});

const approval = (page: Page, toolCallId: string) =>
  page.locator(`.tool-card[data-tool-call-id="${toolCallId}"] .approval-card`);

/** How many cards the session has resolved so far, read over HTTP as another device would. */
async function resolutions(baseUrl: string, sessionId: string, token: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/sessions/${sessionId}/events`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { events } = (await response.json()) as { events: Array<{ type: string }> };
  return events.filter((event) => event.type === "interaction_resolved").length;
}

describe.skipIf(!hasChromium)("approval cards and keys meant for something else", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("does not move focus to an approval that arrives while the message box is typed in, and Enter approves nothing", async () => {
    const session = await scriptedSession([writeNote("toolu_typing"), say("Noted.")]);
    const page = await openDevice(browser, session);
    const box = page.getByRole("textbox", { name: "Message to the agent" });
    await box.click();
    await page.keyboard.type("I am in the middle of writing");
    // Another device starts the turn that asks for approval while this person types.
    await postMessage(session, "write a note");
    const card = approval(page, "toolu_typing");
    await card.and(page.locator("[data-keys-ready]")).waitFor();
    expect(await card.evaluate((el) => el.contains(document.activeElement))).toBe(false);
    // The keystroke meant "send": it must not approve the tool.
    await page.keyboard.press("Enter");
    await card.getByRole("button", { name: "Deny", exact: true }).click();
    await card.locator(".receipt[data-outcome=denied]").waitFor();
    expect(await box.inputValue()).toBe("I am in the middle of writing");
    await page.context().close();
  });

  it("ignores Enter in a card's first second, and approves only from the Approve button", async () => {
    const session = await scriptedSession([writeNote("toolu_fresh"), say("Done.")]);
    const page = await openDevice(browser, session);
    await postMessage(session, "write a note");
    const card = approval(page, "toolu_fresh");
    await card.locator(":scope:focus").waitFor();
    const readyAtFocus = await card.getAttribute("data-keys-ready");
    await page.keyboard.press("Enter");
    await card.and(page.locator("[data-keys-ready]")).waitFor();
    const origin = new URL(page.url()).origin;
    expect(await resolutions(origin, session.sessionId, session.token)).toBe(0);
    if (readyAtFocus === null) {
      // That Enter came in the first second: it did nothing, not even move focus to Approve.
      expect(await page.evaluate(() => document.activeElement?.textContent)).not.toBe("Approve");
    }
    await card.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Approve");
    expect(await resolutions(origin, session.sessionId, session.token)).toBe(0);
    await page.keyboard.press("Enter");
    await card.locator(".receipt[data-outcome=approved]").waitFor();
    await page.context().close();
  });
});
