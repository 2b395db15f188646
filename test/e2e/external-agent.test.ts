import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreateExternalSessionResponse, ExternalInteraction } from "../../client/client";
import { buildShareUrl } from "../../client/client";
import { hasChromium } from "./browser-env";
import { asPerson, baseUrl, launchBrowser, openDevice } from "./harness";

async function asAgent(session: CreateExternalSessionResponse, method: string, path: string, body?: unknown) {
  return fetch(`${baseUrl()}/api/sessions/${session.sessionId}${path}`, {
    method,
    headers: { authorization: `Bearer ${session.agentToken}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe.skipIf(!hasChromium)("an external agent's session on the page", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("names the agent and its folder, shows its progress and card, and the person's approval reaches the waiting agent", async () => {
    const created = await fetch(`${baseUrl()}/api/sessions`, {
      method: "POST",
      headers: { ...asPerson(), "content-type": "application/json" },
      body: JSON.stringify({ agent: { kind: "external", name: "Claude Code", cwd: "/home/dev/shop" } }),
    });
    expect(created.status).toBe(201);
    const session = (await created.json()) as CreateExternalSessionResponse;
    const page = await openDevice(browser, { ...session, shareUrl: buildShareUrl(baseUrl(), session) });
    // The page says which agent this is and where it runs: the folder its bridge gave.
    const notice = page.locator(".agent-notice");
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(
      /^Claude Code — an agent that runs outside Parley, in \/home\/dev\/shop on its own machine\./,
    );
    // The person may message the agent: its bridge delivers what they send.
    expect(await page.getByRole("textbox").first().getAttribute("placeholder")).toMatch(/^Message /);
    expect(await page.getByRole("textbox").first().isEnabled()).toBe(true);

    await asAgent(session, "POST", "/progress", {
      events: [
        { type: "prompt", text: "Make the file" },
        { type: "text", text: "I will create it with touch." },
      ],
    });
    await page.getByText("I will create it with touch.").waitFor();
    const opened = await asAgent(session, "POST", "/interactions", {
      kind: "approval",
      request: { toolName: "Bash", input: { command: "touch made.txt" }, risk: "execute" },
      key: "toolu_e2e",
    });
    const { interactionId } = (await opened.json()) as { interactionId: string };
    const waiting = asAgent(session, "GET", `/interactions/${interactionId}?wait=30`);
    const approval = page.locator(".approval-card");
    await approval.waitFor();
    expect(await approval.locator(".tool-args").textContent()).toContain("touch made.txt");
    // The agent's risk is its claim, in its words, never Parley's risk chip.
    expect(await approval.locator(".agent-claim").textContent()).toBe("The agent says: risk execute");
    expect(await approval.locator(".chip.risk").count()).toBe(0);
    await approval.getByRole("button", { name: "Approve", exact: true }).click();
    const answered = (await (await waiting).json()) as ExternalInteraction;
    expect(answered).toMatchObject({ status: "resolved", resolution: { outcome: "approved" } });
    await page.locator(".receipt[data-outcome=approved]").waitFor();
  });
});
