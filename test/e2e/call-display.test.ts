// Approval cards people can read, in Chromium: a Claude Code edit as a diff — unified at a phone's
// width, side by side on a wide screen — a write as the file with its line count, and an MCP call's
// arguments as a table titled from the server's own input schema with a long value folded. axe-core
// finds nothing on any of them; the screenshots are the README's.
import { randomUUID } from "node:crypto";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardFor } from "../../src/bridge/claude-card";
import { expectNoViolations } from "./axe-audit";
import { hasChromium } from "./browser-env";
import { externalSession } from "./claude-code-harness";
import {
  baseUrl,
  launchBrowser,
  say,
  screenshot,
  scriptedSession,
  type TestSession,
  typeMessage,
} from "./harness";

const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  colorScheme: "dark",
};
const WIDE: BrowserContextOptions = { viewport: { width: 1280, height: 800 }, colorScheme: "light" };

const OLD_APP = [
  "export function start(port: number) {",
  "  const server = listen(port);",
  "  return server;",
  "}",
];
const NEW_APP = [
  'export function start(port: number, host = "127.0.0.1") {',
  "  const server = listen(port, host);",
  '  server.on("error", (error) => log.error(error));',
  "  return server;",
  "}",
];

let browser: Browser;

async function open(session: TestSession, options: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext({ ...options, reducedMotion: "reduce" });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error("page error:", error));
  await page.goto(session.shareUrl);
  await page.locator(".connection[data-state=connected]").waitFor();
  return page;
}

/** Opens a card the way `parley hook` does for Claude Code's permission request. */
async function openClaudeCard(
  session: { sessionId: string; agentToken: string },
  key: string,
  toolName: string,
  input: Record<string, unknown>,
): Promise<void> {
  const opened = await fetch(`${baseUrl()}/api/sessions/${session.sessionId}/interactions`, {
    method: "POST",
    headers: { authorization: `Bearer ${session.agentToken}`, "content-type": "application/json" },
    body: JSON.stringify({ ...cardFor(toolName, input), key }),
  });
  expect(opened.status).toBe(201);
}

/** Each line of a drawn diff as its mark and text, as a person reads it. */
function readLines(page: Page, selector: string): Promise<string[]> {
  return page
    .locator(selector)
    .evaluateAll((rows) =>
      rows.map(
        (row) =>
          `${row.querySelector(".diff-mark")?.textContent ?? ""}${row.querySelector(".diff-text")?.textContent ?? ""}`,
      ),
    );
}

describe.skipIf(!hasChromium)("approval cards that draw the call", () => {
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("draws an Edit unified on a phone and side by side on a wide screen, and a Write with its line count, with no axe violations", {
    timeout: 90_000,
  }, async () => {
    const session = await externalSession(baseUrl(), `diff-${randomUUID()}`);
    await openClaudeCard(session, "toolu_edit", "Edit", {
      file_path: "src/app.ts",
      old_string: OLD_APP.join("\n"),
      new_string: NEW_APP.join("\n"),
    });
    await openClaudeCard(session, "toolu_write", "Write", {
      file_path: "docs/notes.md",
      content: "# Notes\n\nThe server now listens on 127.0.0.1 by default.\n<!-- \u202e -->\n",
    });
    const phone = await open(session, PHONE);
    const wide = await open(session, WIDE);

    for (const page of [phone, wide]) {
      const edit = page.locator(".approval-card").filter({ has: page.locator(".call-diff") });
      await edit.waitFor();
      expect(await edit.locator(".call-diff figcaption").textContent()).toMatch(/^Edit src\/app\.ts \+3 −2/);
      const write = page.locator(".approval-card").filter({ has: page.locator(".call-file") });
      expect(await write.locator("figcaption").textContent()).toBe("Writes docs/notes.md · 4 lines");
      expect(await write.locator(".call-source").textContent()).toContain("listens on 127.0.0.1");
      // A bidi override is spelled out, never obeyed: the file reads as what it holds.
      expect(await write.locator(".call-source").textContent()).toContain("<!-- \\u202e -->");
    }

    // A phone reads one column, old over new; a wide screen reads them side by side.
    expect(await phone.locator(".diff-unified").first().isVisible()).toBe(true);
    expect(await phone.locator(".diff-split").first().isVisible()).toBe(false);
    expect(await wide.locator(".diff-split").first().isVisible()).toBe(true);
    expect(await wide.locator(".diff-unified").first().isVisible()).toBe(false);
    expect(await readLines(phone, ".call-diff .diff-unified .diff-line")).toEqual([
      "−export function start(port: number) {",
      "−  const server = listen(port);",
      '+export function start(port: number, host = "127.0.0.1") {',
      "+  const server = listen(port, host);",
      '+  server.on("error", (error) => log.error(error));',
      "   return server;",
      " }",
    ]);
    // Side by side: the removed lines beside the added ones, unchanged lines on both sides.
    const rows = await wide
      .locator(".call-diff .diff-split .diff-row")
      .evaluateAll((found) =>
        found.map((row) =>
          Array.from(row.children).map(
            (cell) =>
              `${cell.querySelector(".diff-mark")?.textContent ?? ""}${cell.querySelector(".diff-text")?.textContent ?? ""}`,
          ),
        ),
      );
    expect(rows).toEqual([
      [
        "−export function start(port: number) {",
        '+export function start(port: number, host = "127.0.0.1") {',
      ],
      ["−  const server = listen(port);", "+  const server = listen(port, host);"],
      ["", '+  server.on("error", (error) => log.error(error));'],
      ["   return server;", "   return server;"],
      [" }", " }"],
    ]);
    // Colour is not the only sign: each changed line says what it is to a screen reader too.
    expect(await phone.locator(".diff-unified .diff-added .visually-hidden").first().textContent()).toBe(
      "added: ",
    );
    await expectNoViolations(phone, "an Edit and a Write on a phone");
    await expectNoViolations(wide, "an Edit and a Write on a wide screen");
    await phone.locator(".call-diff").first().scrollIntoViewIfNeeded();
    await screenshot(phone, "diff-approval-phone");
    await wide.locator(".call-diff").first().scrollIntoViewIfNeeded();
    await screenshot(wide, "diff-approval-wide");
    await phone.context().close();
    await wide.context().close();
  });

  it("shows an MCP call's arguments titled from the server's input schema, a long value folded, with no axe violations", {
    timeout: 90_000,
  }, async () => {
    const data = `data:text/plain;base64,${Buffer.from("Parley notes. ".repeat(40)).toString("base64")}`;
    const session = await scriptedSession(
      [
        {
          content: [
            { type: "text", text: "I'll compress the notes." },
            {
              type: "tool_use",
              id: "toolu_gzip",
              name: "mcp__everything__gzip-file-as-resource",
              input: { name: "notes.txt.gz", data, outputType: "resource" },
            },
          ],
        },
        say("Compressed."),
      ],
      { mcpServers: ["everything"] },
    );
    const phone = await open(session, PHONE);
    await typeMessage(phone, "Compress the notes");
    const card = phone.locator('.tool-card[data-tool-call-id="toolu_gzip"] .approval-card');
    await card.locator(".call-arguments").waitFor();

    const rows = await card
      .locator(".call-arguments tbody tr")
      .evaluateAll((found) =>
        found.map((row) => [
          row.querySelector(".argument-title")?.textContent ?? null,
          row.querySelector(".argument-name")?.textContent ?? "",
        ]),
      );
    // server-everything's schema describes each argument; its own name stays beside the words.
    expect(rows).toEqual([
      ["Name of the output file", "name"],
      ["URL or data URI of the file content to compress", "data"],
      [expect.stringMatching(/^How the resulting gzipped file should be returned/), "outputType"],
    ]);
    const fold = card.locator(".argument-fold");
    expect(await fold.count()).toBe(1);
    expect(await fold.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(false);
    expect(await fold.locator("summary").textContent()).toContain(`${data.length} characters, show all`);
    expect(await card.locator(".argument-value").first().textContent()).toBe("notes.txt.gz");

    await expectNoViolations(phone, "an MCP argument table on a phone");
    await card.scrollIntoViewIfNeeded();
    await screenshot(phone, "mcp-arguments-phone");
    await fold.locator("summary").click();
    expect(await fold.locator(".argument-value").textContent()).toBe(data);
    await expectNoViolations(phone, "an MCP argument table with its long value open");
    await phone.context().close();
  });
});
