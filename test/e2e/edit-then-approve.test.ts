import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import { launchBrowser, openDevice, type Reply, say, scriptedSession, typeMessage } from "./harness";

const writeNote: Reply = {
  content: [
    { type: "tool_use", id: "toolu_edit", name: "notes_write", input: { key: "plan", text: "Friday" } },
  ],
};

const card = (page: Page) => page.locator(`.tool-card[data-tool-call-id="toolu_edit"]`);

describe.skipIf(!hasChromium)("edit, then approve, through the page", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows a JSON problem and the server's refusal inline, then runs the edited call", async () => {
    const session = await scriptedSession([writeNote, say("Noted.")]);
    const page = await openDevice(browser, session);
    await typeMessage(page, "Save the plan");
    const approval = card(page).locator(".approval-card");
    await approval.waitFor();
    await approval.locator("summary", { hasText: "More…" }).click();
    await approval.getByRole("button", { name: "Edit" }).click();
    const editor = approval.getByLabel("Arguments as JSON");
    expect(JSON.parse(await editor.inputValue())).toEqual({ key: "plan", text: "Friday" });

    await editor.fill("{ not json");
    await approval.getByRole("button", { name: "Approve edited" }).click();
    await expect
      .poll(() => approval.locator(".input-editor-problem").textContent())
      .toMatch(/^Not valid JSON/);

    await editor.fill(JSON.stringify({ key: "plan", text: 42 }));
    await approval.getByRole("button", { name: "Approve edited" }).click();
    await expect
      .poll(() => approval.locator(".input-editor-problem").textContent())
      .toMatch(/updatedInput does not fit notes_write/);

    await editor.fill(JSON.stringify({ key: "plan", text: "Monday" }));
    await approval.getByRole("button", { name: "Approve edited" }).click();
    await card(page).locator(".receipt[data-outcome=approved]").waitFor();
    expect(await card(page).locator(".receipt").textContent()).toBe("Approved · with edited arguments");
    await page.getByText("Noted.").waitFor();
    expect(await card(page).locator(".tool-result-text").textContent()).toMatch(
      /"text":"Monday"[\s\S]*Saved note "plan"/,
    );
  });
});
