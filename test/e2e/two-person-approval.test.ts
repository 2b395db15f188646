// A second person for what matters, in two browsers: APPROVAL_POLICIES (global-setup.ts) makes
// `Bash(git push:*)` need two people, and this server has no Cloudflare Access, so it knows one
// person (the operator) and every credential of a session is theirs. Both pages say the call needs
// a second person who does not exist; the owner's approval counts once, the answer link the owner
// minted gives no second one, and a denial from either page decides it.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreateExternalSessionResponse, ExternalInteraction } from "../../client/client";
import { buildShareUrl } from "../../client/client";
import type { MintedLink } from "../../src/protocol/access/access";
import { ONE_PERSON_ONLY } from "../../src/protocol/cards/approval-words";
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

  it("says on every page that it needs a second person this server does not know, counts the owner's link as the owner, and is denied from the link's page", async () => {
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
    const linkCard = second.locator(".approval-card");
    for (const card of [ownerCard, linkCard]) {
      await card.locator(".approval-count").getByText("0 of 2 approvals").waitFor({ timeout: 8_000 });
      await card.locator(".approval-count").getByText(ONE_PERSON_ONLY).waitFor();
    }
    await ownerCard.getByRole("button", { name: "Approve", exact: true }).click();
    // Both pages say how far it got, and that it can get no further; the agent's card is still pending.
    for (const card of [ownerCard, linkCard]) {
      await card.locator(".approval-count").getByText("1 of 2 approvals").waitFor({ timeout: 8_000 });
      await card.locator(".approval-count").getByText(ONE_PERSON_ONLY).waitFor();
    }
    await ownerCard.locator(".action-line").getByText("so it cannot run: deny it").waitFor();
    await expectNoViolations(second, "an approval that needs a second person who does not exist");

    // The link the owner minted is the owner again: its approval is refused, and nothing runs.
    await linkCard.getByRole("button", { name: "Approve", exact: true }).click();
    await linkCard
      .locator(".action-line")
      .getByText("You already approved this call")
      .waitFor({ timeout: 8_000 });
    const waiting = (await (
      await call(session.agentToken, session.sessionId, "GET", `/interactions/${interactionId}`)
    ).json()) as ExternalInteraction;
    expect(waiting.status).toBe("pending");

    const answered = call(
      session.agentToken,
      session.sessionId,
      "GET",
      `/interactions/${interactionId}?wait=30`,
    );
    await linkCard.getByRole("button", { name: "Deny", exact: true }).click();
    const resolved = (await (await answered).json()) as ExternalInteraction;
    expect(resolved).toMatchObject({ status: "resolved", resolution: { outcome: "denied" } });
    await ownerCard.locator(".receipt[data-outcome=denied]").waitFor({ timeout: 8_000 });
  });
});
