// An ACP agent's permission request on the page: the card shows ACP's kind, the diff and the
// locations, says that a denial carries no reason to the agent, and offers only the choices the
// agent offered (here "Always deny", and no "Always allow", no reason, no edit).
import { randomUUID } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardForPermission } from "../../bin/acp/acp-permissions";
import { hasChromium } from "./browser-env";
import { externalSession } from "./claude-code-harness";
import { baseUrl, launchBrowser, openDevice } from "./harness";

let browser: Browser;

describe.skipIf(!hasChromium)("an ACP agent's approval card", () => {
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows the diff and offers only what the agent can take back", { timeout: 60_000 }, async () => {
    const session = await externalSession(baseUrl(), `acp-card-${randomUUID()}`, "Gemini CLI");
    const card = cardForPermission({
      sessionId: "acp-1",
      toolCall: {
        toolCallId: "call_1",
        title: "Edit notes.md",
        kind: "edit",
        rawInput: { path: "/p/notes.md" },
        content: [
          { type: "diff", path: "/p/notes.md", oldText: "one\ntwo\nthree", newText: "one\n2\nthree" },
        ],
        locations: [{ path: "/p/notes.md", line: 2 }],
      },
      options: [
        { optionId: "ok", name: "Allow", kind: "allow_once" },
        { optionId: "no", name: "Reject", kind: "reject_once" },
        { optionId: "never", name: "Never", kind: "reject_always" },
      ],
    });
    const opened = await fetch(`${baseUrl()}/api/sessions/${session.sessionId}/interactions`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.agentToken}`, "content-type": "application/json" },
      body: JSON.stringify({ ...card, key: "call_1" }),
    });
    expect(opened.status).toBe(201);
    const { interactionId } = (await opened.json()) as { interactionId: string };

    const page = await openDevice(browser, session, "owner");
    const shown = page.locator(".approval-card");
    await shown.waitFor();
    const lines = shown.locator(".acp-diff .diff-unified .diff-line");
    expect(
      await lines.evaluateAll((rows) =>
        rows.map(
          (row) =>
            `${row.querySelector(".diff-mark")?.textContent}${row.querySelector(".diff-text")?.textContent}`,
        ),
      ),
    ).toEqual([" one", "\u2212two", "+2", " three"]);
    expect(await shown.locator(".acp-locations").textContent()).toBe("/p/notes.md:2");
    expect(await shown.locator(".acp-note").textContent()).toContain("no reason");
    expect(await shown.locator(".deny-reason").count()).toBe(0);
    await shown.locator("summary", { hasText: "More…" }).click();
    expect(await shown.getByRole("button", { name: "Always allow (this session)" }).count()).toBe(0);
    expect(await shown.getByRole("button", { name: "Edit" }).count()).toBe(0);
    await shown.getByRole("button", { name: "Always deny" }).click();

    await expect
      .poll(async () => {
        const response = await fetch(
          `${baseUrl()}/api/sessions/${session.sessionId}/interactions/${interactionId}`,
          { headers: { authorization: `Bearer ${session.agentToken}` } },
        );
        return ((await response.json()) as { resolution?: { response?: unknown } }).resolution?.response;
      })
      .toEqual({ decision: "deny", reason: null, remember: true });
    await page.context().close();
  });
});
