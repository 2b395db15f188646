// The page's Content-Security-Policy and security headers, as Workers Assets serves them, enforced
// by a real Chromium through a whole demo session — and the owner's share links end to end.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import { baseUrl, launchBrowser, typeMessage } from "./harness";

/** Records every CSP violation the page reports, from the first byte of every document. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction("__reportViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { __reportViolation(text: string): void }).__reportViolation(
        `${event.violatedDirective} blocked ${event.blockedURI}`,
      );
    });
  });
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

describe.skipIf(!hasChromium)("the page's Content-Security-Policy", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("is sent with nosniff, no-referrer and frame-ancestors 'none', and a whole demo runs without one violation", async () => {
    const page = await (await browser.newContext({ reducedMotion: "reduce" })).newPage();
    const violations = await watchViolations(page);
    const response = await page.goto(baseUrl());
    const headers = response?.headers() ?? {};
    const csp = headers["content-security-policy"] ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-(inline|eval)/);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("no-referrer");

    await page.getByRole("button", { name: "Start a session" }).click();
    await page.locator(".connection[data-state=connected]").waitFor();
    await typeMessage(page, "Show me around");
    const question = page.locator(".question-card");
    await question.waitFor();
    await question.getByText("Notes", { exact: true }).click();
    await question.getByText("Laptop", { exact: true }).click();
    await question.getByRole("button", { name: "Submit answers" }).click();
    const approval = page.locator(".approval-card");
    await approval.waitFor();
    await approval.getByRole("button", { name: "Approve", exact: true }).click();
    await expect
      .poll(() => page.locator(".status-bar").getAttribute("data-status"), { timeout: 20_000 })
      .toBe("idle");
    // The share panel (owner) mints and lists links over the same origin.
    await page.getByText("Open on another device").click();
    await page.getByRole("button", { name: "Create link" }).click();
    await expect.poll(() => page.locator(".share-url").inputValue()).toMatch(/#\/s\/[0-9a-f]{32}\?token=eyJ/);
    await page.locator(".share-link").first().waitFor();
    expect(violations).toEqual([]);

    // The policy is really enforced: an injected inline script is blocked and reported.
    await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.__inlineRan = true";
      document.body.append(script);
    });
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    expect(
      await page.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan),
    ).toBeUndefined();
  });

  it("disconnects a device at once when the owner revokes its link, and says why", async () => {
    const owner = await (await browser.newContext()).newPage();
    await owner.goto(baseUrl());
    await owner.getByRole("button", { name: "Start a session" }).click();
    await owner.locator(".connection[data-state=connected]").waitFor();
    await owner.getByText("Open on another device").click();
    await owner.getByRole("combobox", { name: "What the link allows" }).selectOption("view");
    await owner.getByRole("textbox", { name: "Link label" }).fill("wall screen");
    await owner.getByRole("button", { name: "Create link" }).click();
    await expect.poll(() => owner.locator(".share-url").inputValue()).toMatch(/token=eyJ/);
    const link = await owner.locator(".share-url").inputValue();

    const viewer = await (await browser.newContext()).newPage();
    await viewer.goto(link);
    await viewer.locator(".connection[data-state=connected]").waitFor();
    expect(await viewer.getByRole("textbox", { name: "Message to the agent" }).isDisabled()).toBe(true);
    expect(await viewer.locator(".share").isHidden()).toBe(true);
    expect(await viewer.getByRole("combobox", { name: "Permission mode" }).isHidden()).toBe(true);

    const item = owner.locator(".share-link", { hasText: "wall screen" });
    await item.waitFor();
    await item.getByRole("button", { name: "Revoke" }).click();
    await viewer.getByText("This share link was revoked").waitFor();
  });
});
