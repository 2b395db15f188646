// An MCP server's tool in the browser: the approval card names the server and the tool, a second
// device approves it, and both show the server's answer; server-everything's form, pushed inside its
// open call, is filled in on a phone and the server reports every value back.
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

  it("fills in server-everything's form on a phone, every field type, and the server gets the values", async () => {
    const id = "toolu_mcp_form";
    const session = await scriptedSession(
      [
        {
          content: [
            { type: "tool_use", id, name: "mcp__everything__trigger-elicitation-request", input: {} },
          ],
        },
        say("The server has your details."),
      ],
      { mcpServers: ["everything"], permissionMode: "bypassPermissions" },
    );
    const laptop = await openDevice(browser, session, "laptop");
    const phone = await openDevice(browser, session, "phone");
    await typeMessage(laptop, "Ask me through MCP");

    const card = phone.locator(".form-card");
    await card.waitFor();
    await card.getByText("Please provide inputs for the following fields:").waitFor();
    await laptop.locator(".form-card").waitFor();
    // "String" is the one required field; the card marks it.
    await card.getByLabel(/^String \*/).fill("Ada Lovelace");
    await card.getByLabel("String with email format").fill("ada@example.com");
    await card.getByLabel("String with uri format").fill("https://example.com/ada");
    await card.getByLabel("String with date format").fill("1815-12-10");
    await card.getByLabel("Integer").fill("7");
    await card.getByLabel("Boolean").check();
    await card.getByLabel("Piano").check();
    await card.getByLabel("Wonder Woman").check();
    await card.getByLabel("Dogs").check();
    await screenshot(phone, "mcp-form");
    await card.getByRole("button", { name: "Accept" }).click();

    await laptop.getByText("The server has your details.").waitFor();
    const result = await laptop
      .locator(`.tool-card[data-tool-call-id="${id}"] .tool-result-text`)
      .textContent();
    expect(result).toContain("✅ User provided the requested information!");
    const raw = JSON.parse(result?.split("Raw result: ")[1] ?? "{}");
    expect(raw).toMatchObject({
      action: "accept",
      content: {
        name: "Ada Lovelace",
        check: true,
        email: "ada@example.com",
        homepage: "https://example.com/ada",
        birthdate: "1815-12-10",
        integer: 7,
        untitledMultipleSelectEnum: expect.arrayContaining(["Guitar", "Piano"]),
        titledSingleSelectEnum: "hero-3",
        legacyTitledEnum: "pet-2",
      },
    });
  });
  it("shows a server's page to visit with its whole address, opens nothing by itself, and the phone's 'I've finished' reaches the server", async () => {
    const id = "toolu_mcp_url";
    const url = "https://accounts.example.com/connect?account=ada&scope=read";
    const session = await scriptedSession(
      [
        {
          content: [
            {
              type: "tool_use",
              id,
              name: "mcp__everything__trigger-url-elicitation",
              input: { url, message: "Connect your example.com account" },
            },
          ],
        },
        say("Your account is connected."),
      ],
      { mcpServers: ["everything"], permissionMode: "bypassPermissions" },
    );
    const laptop = await openDevice(browser, session, "laptop");
    const phone = await openDevice(browser, session, "phone");
    const opened: string[] = [];
    phone.context().on("page", (page) => opened.push(page.url()));
    await typeMessage(laptop, "Connect my account");

    for (const page of [laptop, phone]) {
      const card = page.locator(`.tool-card[data-tool-call-id="${id}"] .url-card`);
      await card.waitFor();
      expect(await card.locator(".card-title").textContent()).toBe("Connect your example.com account");
      expect(await card.locator(".url-host").textContent()).toBe("accounts.example.com");
      // The card names the server that sent it, whose host is not the page's.
      expect(await card.locator(".url-from strong").textContent()).toBe("everything");
      expect(await card.getByRole("note").textContent()).toMatch(
        /^This page is on accounts\.example\.com, not on 127\.0\.0\.1:\d+ where the server runs/,
      );
      expect(await card.locator(".url-full").textContent()).toBe(url);
      const link = card.getByRole("link", { name: "Open accounts.example.com" });
      expect(await link.getAttribute("href")).toBe(url);
      expect(await link.getAttribute("target")).toBe("_blank");
      expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
    }
    await screenshot(phone, "mcp-url");
    expect(opened).toEqual([]);

    await phone.locator(".url-card").getByRole("button", { name: "I've finished" }).click();
    await laptop.getByText("Your account is connected.").waitFor();
    expect(await laptop.locator(".url-card .receipt").textContent()).toBe(
      "Finished on the page on another device",
    );
    expect(await phone.locator(".url-card .receipt").textContent()).toBe("Finished on the page");
    expect(await laptop.locator(".url-card button:visible").count()).toBe(0);
    const result = await laptop
      .locator(`.tool-card[data-tool-call-id="${id}"] .tool-result-text`)
      .textContent();
    expect(result).toContain("✅ User completed the URL elicitation flow.");
    expect(JSON.parse(result?.split("Raw result: ")[1] ?? "{}")).toEqual({ action: "accept" });
  });
});
