// Grants through the page: "Allow …" on an approval card approves and makes a grant for this
// session, so the next call runs with no card; the inbox lists it under Grants (revoked in one tap)
// and the decisions under History, with nothing axe objects to on a laptop or a phone.
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GrantView } from "../../src/protocol/grants/grants";
import { expectNoViolations } from "./axe-audit";
import { hasChromium } from "./browser-env";
import {
  asPerson,
  baseUrl,
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

const DEVICES: Record<string, BrowserContextOptions> = {
  laptop: { viewport: { width: 1280, height: 800 }, colorScheme: "light" },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme: "dark" },
};

describe.skipIf(!hasChromium)("grants through the page", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  // Two devices, four accessibility audits and two screenshots: about 28 s on a busy 2-core machine.
  it("allows from a card for this session, then lists, audits and revokes the grant from the inbox", {
    timeout: 90_000,
  }, async () => {
    const session = await scriptedSession([
      writeNote("toolu_g1", "first"),
      writeNote("toolu_g2", "second"),
      say("Both notes written."),
    ]);
    const page = await openDevice(browser, session);
    await typeMessage(page, "Write two notes");
    const first = card(page, "toolu_g1");
    await first.locator("summary", { hasText: "More…" }).click();
    await first.getByRole("button", { name: "Allow …" }).click();
    const rule = first.getByLabel("Allow");
    expect(await rule.inputValue()).toBe("notes_write");
    await first.getByText("Matches every notes_write call.").waitFor();
    await rule.fill("notes_write(x)");
    await first.getByText(/notes_write takes no specifier/).waitFor();
    expect(await first.getByRole("button", { name: "Approve and allow" }).isDisabled()).toBe(true);
    await rule.fill("notes_write");
    await expectNoViolations(page, "an approval card with its grant form open");
    await screenshot(page, "grant-form");
    expect(await first.getByLabel("for", { exact: true }).inputValue()).toBe("session");
    await first.getByRole("button", { name: "Approve and allow" }).click();
    await first.locator(".receipt[data-outcome=approved]").waitFor();
    expect(await first.locator(".receipt").textContent()).toBe(
      "Approved · allowed notes_write for this session",
    );

    // The second call runs without a card: the grant answered it.
    await page.getByText("Both notes written.").waitFor();
    expect(await card(page, "toolu_g2").locator(".approval-card").count()).toBe(0);

    const listed = (await (await fetch(`${baseUrl()}/api/grants`, { headers: asPerson() })).json()) as {
      grants: GrantView[];
    };
    const grant = listed.grants.find((candidate) => candidate.sessionId === session.sessionId);
    expect(grant).toMatchObject({ rule: "notes_write", scope: "session", uses: 1, madeFrom: "page" });
    if (!grant) return;

    const pages = await Promise.all(
      Object.entries(DEVICES).map(async ([name, options]) => {
        const context = await browser.newContext({ ...options, reducedMotion: "reduce" });
        const inbox = await context.newPage();
        inbox.on("pageerror", (error) => console.error(`[${name}] page error:`, error));
        await inbox.goto(baseUrl());
        await inbox.locator(`.record[data-grant-id="${grant.grantId}"]`).waitFor();
        await inbox.locator(".inbox-history .record").first().waitFor();
        return inbox;
      }),
    );
    const [laptop, phone] = pages as [Page, Page];
    const row = laptop.locator(`.record[data-grant-id="${grant.grantId}"]`);
    expect(await row.textContent()).toContain("Used once");
    await laptop.getByLabel("Session", { exact: true }).fill(session.sessionId);
    await laptop.getByRole("button", { name: "Filter" }).click();
    await expect.poll(() => laptop.locator(".inbox-history .record").count()).toBe(2);
    expect(await laptop.locator(".inbox-history").textContent()).toContain("Grant notes_write");
    await expectNoViolations(laptop, "the inbox's grants and history on the laptop");
    await expectNoViolations(phone, "the inbox's grants and history on the phone");
    await screenshot(phone, "inbox-grants-phone");

    await row.getByRole("button", { name: "Revoke allow notes_write" }).click();
    await laptop.locator(`.record[data-grant-id="${grant.grantId}"][data-active="false"]`).waitFor();
    expect(await laptop.locator(`.record[data-grant-id="${grant.grantId}"]`).textContent()).toContain(
      "Revoked",
    );
    await expectNoViolations(laptop, "the inbox with a revoked grant");
  });
});
