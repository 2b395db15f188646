// A second person for what matters, in two browsers: APPROVAL_POLICIES (global-setup.ts) makes
// `Bash(git push:*)` need two distinct answerers. The owner approves on one page and both pages
// show "1 of 2 approvals" while the agent still waits; the call is approved once an answer link's
// page approves too.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreateExternalSessionResponse, ExternalInteraction } from "../../client/client";
import { buildShareUrl } from "../../client/client";
import type { MintedLink } from "../../src/protocol/access";
import { expectNoViolations } from "./axe-audit";
import { hasChromium } from "./browser-env";
import { asPerson, baseUrl, launchBrowser, openDevice } from "./harness";

async function call(token: string, sessionId: string, method: string, path: string, body?: unknown) {
  return fetch(`${baseUrl()}/api/sessions/${sessionId}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe.skipIf(!hasChromium)("a call that needs a second person", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("waits at 1 of 2 approvals on every page after the owner approves, and is approved after an answer link approves", async () => {
    const created = await fetch(`${baseUrl()}/api/sessions`, {
      method: "POST",
      headers: { ...asPerson(), "content-type": "application/json" },
      body: JSON.stringify({ agent: { kind: "external", name: "Claude Code" } }),
    });
    expect(created.status).toBe(201);
    const session = (await created.json()) as CreateExternalSessionResponse;
    const minted = await call(session.token, session.sessionId, "POST", "/links", {
      role: "answer",
      label: "Bo",
    });
    expect(minted.status).toBe(201);
    const link = (await minted.json()) as MintedLink;
    const owner = await openDevice(
      browser,
      { ...session, shareUrl: buildShareUrl(baseUrl(), session) },
      "owner",
    );
    const second = await openDevice(browser, { ...session, shareUrl: link.shareUrl }, "answer link");
    const opened = await call(session.agentToken, session.sessionId, "POST", "/interactions", {
      kind: "approval",
      request: { toolName: "Bash", input: { command: "git push origin main" } },
    });
    expect(opened.status).toBe(201);
    const { interactionId } = (await opened.json()) as { interactionId: string };

    const ownerCard = owner.locator(".approval-card");
    await ownerCard.locator(".approval-count").getByText("0 of 2 approvals").waitFor({ timeout: 8_000 });
    await ownerCard.getByRole("button", { name: "Approve", exact: true }).click();
    // Both pages say how far it got; the agent's card is still pending.
    await ownerCard
      .locator(".approval-count")
      .getByText("1 of 2 approvals · local")
      .waitFor({ timeout: 8_000 });
    const linkCard = second.locator(".approval-card");
    await linkCard
      .locator(".approval-count")
      .getByText("1 of 2 approvals · local")
      .waitFor({ timeout: 8_000 });
    await expectNoViolations(second, "an approval that waits for a second person");
    const waiting = (await (
      await call(session.agentToken, session.sessionId, "GET", `/interactions/${interactionId}`)
    ).json()) as ExternalInteraction;
    expect(waiting.status).toBe("pending");

    // This page counted its person once: it waits for another person rather than offering again.
    await ownerCard.locator(".action-line").getByText("Your approval counts: 1 of 2 approvals").waitFor();
    expect(await ownerCard.getByRole("button", { name: "Approve", exact: true }).isDisabled()).toBe(true);

    const answered = call(
      session.agentToken,
      session.sessionId,
      "GET",
      `/interactions/${interactionId}?wait=30`,
    );
    await linkCard.getByRole("button", { name: "Approve", exact: true }).click();
    const resolved = (await (await answered).json()) as ExternalInteraction;
    expect(resolved).toMatchObject({ status: "resolved", resolution: { outcome: "approved" } });
    await ownerCard.locator(".receipt[data-outcome=approved]").waitFor({ timeout: 8_000 });
    expect(await ownerCard.locator(".approval-count").isHidden()).toBe(true);
  });
});
