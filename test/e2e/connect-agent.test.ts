// "Connect an agent" on the inbox, on a phone: the person mints a key with a label, sees it once
// with each bridge's snippet filled in (running the command this gateway serves, no path to edit),
// the key creates an external session and nothing else, and revoking it from the list refuses it.
// The panel passes the accessibility audit.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoViolations } from "./axe-audit";
import { hasChromium } from "./browser-env";
import { baseUrl, launchBrowser } from "./harness";

function createWith(key: string): Promise<Response> {
  return fetch(`${baseUrl()}/api/sessions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ agent: { kind: "external", name: "Phone-minted agent" } }),
  });
}

describe.skipIf(!hasChromium)("Connect an agent on the inbox", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("mints a key shown once with ready snippets, lists it, and revokes it", {
    timeout: 60_000,
  }, async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      reducedMotion: "reduce",
    });
    const page = await context.newPage();
    await page.goto(baseUrl());
    const panel = page.getByRole("region", { name: "Connect an agent" });
    await panel.waitFor();
    const label = `Phone laptop ${crypto.randomUUID().slice(0, 6)}`;
    await panel.getByLabel("Label").fill(label);
    await panel.getByRole("button", { name: "Create agent key" }).click();

    const keyField = panel.getByLabel(`Agent key ${label}`, { exact: true });
    await keyField.waitFor();
    const key = await keyField.inputValue();
    expect(key).toMatch(/^pak_/);
    const snippets = await panel.locator(".agent-snippet pre").allTextContents();
    expect(snippets).toHaveLength(4);
    for (const snippet of snippets) expect(snippet).toContain(key);
    expect(snippets.join("\n")).toContain(`"--agent-key"`);
    // Each bridge runs the command this gateway serves, from the page's own origin: nothing to edit.
    const cli = `${baseUrl()}/cli/parley.tgz`;
    expect(snippets[0]).toContain(`"${cli}"`);
    expect(snippets[1]).toContain(`npx -y ${cli} hook --server ${baseUrl()} --agent-key ${key}`);
    expect(snippets.join("\n")).not.toMatch(/\/path\/to|parley\.mjs/);
    expect((await fetch(cli)).status).toBe(200);
    const listed = panel.locator(".agent-key", { hasText: label });
    await listed.waitFor();
    await expectNoViolations(page, "the inbox with a new agent key");

    // The key does its one thing, without any owner credential.
    const created = await createWith(key);
    expect(created.status).toBe(201);
    expect(await created.json()).not.toHaveProperty("token");

    await listed.getByRole("button", { name: `Revoke agent key ${label}` }).click();
    await panel.locator(".agent-key[data-state='revoked']", { hasText: label }).waitFor();
    expect((await createWith(key)).status).toBe(403);
    // Reloaded, the page never shows the key again.
    await page.reload();
    await panel.locator(".agent-key", { hasText: label }).waitFor();
    expect(await page.content()).not.toContain(key);
    await context.close();
  });
});
