// An MCP server's tool in the browser: the approval card names the server and the tool, a second
// device approves it, and both show the server's answer.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import { launchBrowser, openDevice, say, screenshot, scriptedSession, typeMessage } from "./harness";

describe.skipIf(!hasChromium)("MCP tools in the page", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows the server and tool on the approval card, and a second device approves the call", async () => {
    const session = await scriptedSession(
      [
        {
          content: [
            { type: "text", text: "I'll ask the everything server to echo." },
            {
              type: "tool_use",
              id: "toolu_mcp_echo",
              name: "mcp__everything__echo",
              input: { message: "hi" },
            },
          ],
        },
        say("The server echoed."),
      ],
      { mcpServers: ["everything"] },
    );
    const laptop = await openDevice(browser, session);
    const phone = await openDevice(browser, session);
    await typeMessage(laptop, "Echo through MCP");

    for (const page of [laptop, phone]) {
      const card = page.locator('.tool-card[data-tool-call-id="toolu_mcp_echo"] .approval-card');
      await card.waitFor();
      expect(await card.locator(".mcp-origin").textContent()).toBe(
        "MCP server everything · tool echo · Echo Tool · server says: read-only, idempotent",
      );
    }
    await screenshot(laptop, "mcp-approval");
    const onPhone = phone.locator('.tool-card[data-tool-call-id="toolu_mcp_echo"]');
    await onPhone.getByRole("button", { name: "Approve", exact: true }).click();
    for (const page of [laptop, phone]) {
      await page.getByText("The server echoed.").waitFor();
      const card = page.locator('.tool-card[data-tool-call-id="toolu_mcp_echo"]');
      expect(await card.locator(".tool-result-text").textContent()).toBe("Echo: hi");
    }
  });
});
