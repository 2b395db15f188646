import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import { launchBrowser, openDevice, scriptedSession, typeMessage } from "./harness";

const IMG = `<img src=x onerror="window.__pwned = 'img'">`;
const SCRIPT = `<script>window.__pwned = 'script'</script>`;

describe.skipIf(!hasChromium)("model and user text that looks like HTML", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("renders as visible text and creates no elements", async () => {
    const session = await scriptedSession([
      {
        content: [
          { type: "text", text: `Here you go: ${IMG} and ${SCRIPT}` },
          {
            type: "tool_use",
            id: "toolu_html",
            name: "AskUserQuestion",
            input: {
              questions: [
                {
                  question: `Pick ${IMG}`,
                  header: "<b>x</b>",
                  multiSelect: false,
                  options: [
                    { label: SCRIPT, description: IMG },
                    { label: "<i>plain</i>", description: "" },
                  ],
                },
              ],
            },
          },
        ],
      },
    ]);
    const page = await openDevice(browser, session);
    await typeMessage(page, `mine: ${IMG}`);
    await page.locator(".question-card").waitFor();

    await page.getByText(`Here you go: ${IMG} and ${SCRIPT}`).waitFor();
    await page.getByText(`mine: ${IMG}`).waitFor();
    await page.getByText(`Pick ${IMG}`).waitFor();
    expect(await page.locator(".option-label").first().textContent()).toBe(SCRIPT);
    const app = page.locator("#app");
    expect(await app.locator("img, script, b, i").count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();
  });
});
