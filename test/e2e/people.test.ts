// An invited approver in a second Chromium, on a server of this file's own (no Cloudflare Access,
// `Bash(git push:*)` needs two people): the operator invites Bo from the inbox's People, Bo's
// browser redeems the URL on Accept and keeps a credential of its own, Bo's inbox shows the
// operator's card and Bo approves it — one approval of two; the operator's approval is the second,
// and the call is approved. Bo's page offers its own "Notify this device". Removing Bo closes Bo's
// socket and refuses Bo's next answer.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startWranglerDev } from "../../scripts/wrangler-dev.mjs";
import { expectNoViolations } from "./axe-audit";
import { hasChromium } from "./browser-env";
import { launchBrowser } from "./harness";

type External = { sessionId: string; token: string; agentToken: string };

describe.skipIf(!hasChromium)("an invited approver in a second browser", () => {
  let server: DevServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    // Its own server: an approver of the operator changes what every other file's operator sees.
    server = await startWranglerDev({
      label: "people",
      vars: {
        ALLOW_SCRIPTED_SESSIONS: "true",
        APPROVAL_POLICIES: JSON.stringify([{ rule: "Bash(git push:*)", approvals: 2 }]),
      },
    });
    browser = await launchBrowser({ signedIn: false, serviceWorker: true });
  }, 90_000);
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
  });

  const api = (path: string, init: { method?: string; token?: string; body?: unknown } = {}) =>
    fetch(`${server.baseUrl}${path}`, {
      method: init.method ?? "GET",
      headers: {
        authorization: `Bearer ${init.token ?? server.gatewayToken}`,
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });

  async function openPage(name: string, token: string | null): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width: 900, height: 1200 },
      reducedMotion: "reduce",
    });
    contexts.push(context);
    if (token) await context.addInitScript((t) => localStorage.setItem("parley.gatewayToken", t), token);
    const page = await context.newPage();
    page.on("pageerror", (error) => console.error(`[${name}] page error:`, error));
    return page;
  }

  async function pushCard(): Promise<{ session: External; interactionId: string }> {
    const created = await api("/api/sessions", {
      method: "POST",
      body: { agent: { kind: "external", name: "Claude Code" } },
    });
    expect(created.status).toBe(201);
    const session = (await created.json()) as External;
    const opened = await api(`/api/sessions/${session.sessionId}/interactions`, {
      method: "POST",
      token: session.agentToken,
      body: { kind: "approval", request: { toolName: "Bash", input: { command: "git push origin main" } } },
    });
    expect(opened.status).toBe(201);
    return { session, interactionId: ((await opened.json()) as { interactionId: string }).interactionId };
  }

  async function outcomeOf(session: External, interactionId: string): Promise<string> {
    const read = await api(`/api/sessions/${session.sessionId}/interactions/${interactionId}`, {
      token: session.agentToken,
    });
    const body = (await read.json()) as { status: string; resolution?: { outcome: string } };
    return body.resolution?.outcome ?? body.status;
  }

  it("sees and answers the operator's card in their own inbox, counts as the second person, and is removed at once", {
    timeout: 120_000,
  }, async () => {
    const operator = await openPage("operator", server.gatewayToken);
    await operator.goto(`${server.baseUrl}/`);
    const people = operator.locator(".inbox-people");
    await people.getByLabel("Name").fill("Bo");
    await people.getByRole("button", { name: "Invite" }).click();
    const url = await people.locator(".people-url").inputValue({ timeout: 10_000 });
    expect(url).toContain("/#/join?invite=");

    // Bo's browser: the invite is redeemed on Accept, never by opening it.
    const bo = await openPage("bo", null);
    await bo.goto(url);
    await bo.getByRole("button", { name: "Accept" }).waitFor();
    expect((await (await api("/api/people")).json()).approvers).toEqual([]);
    await bo.getByRole("button", { name: "Accept" }).click();
    const answering = bo.locator(".inbox-answering");
    await answering.getByText("You answer operator's cards as Bo").waitFor({ timeout: 10_000 });
    const credential = await bo.evaluate(() => localStorage.getItem("parley.answering"));
    expect(credential).not.toContain(server.gatewayToken);
    // Bo's own "Notify this device" for the operator's cards: off until Bo turns it on (or saying
    // why this server cannot push), read with Bo's credential, never the operator's.
    const notify = answering.locator('.notify:not([data-state="loading"])');
    await notify.waitFor({ timeout: 10_000 });
    expect(["off", "unavailable"]).toContain(await notify.getAttribute("data-state"));
    // The operator's list shows Bo once it is read again (as after a reload).
    await operator.reload();
    await people.locator("[data-person^='approver:']").getByText("Bo answers").waitFor({ timeout: 10_000 });

    const { session, interactionId } = await pushCard();
    const boCard = answering.locator(`[data-interaction-id="${interactionId}"]`);
    await boCard.locator(".approval-count").getByText("0 of 2 approvals").waitFor({ timeout: 10_000 });
    await expectNoViolations(bo, "an invited approver's inbox");
    await boCard.getByRole("button", { name: "Approve", exact: true }).click();
    await boCard.locator(".approval-count").getByText("1 of 2 approvals").waitFor({ timeout: 10_000 });
    // Bo alone is one person: the call still waits.
    expect(await outcomeOf(session, interactionId)).toBe("pending");

    const operatorCard = operator.locator(`.inbox-waiting [data-interaction-id="${interactionId}"]`);
    await operatorCard.locator(".approval-count").getByText("1 of 2 approvals").waitFor({ timeout: 10_000 });
    await operatorCard.getByRole("button", { name: "Approve", exact: true }).click();
    await expect.poll(() => outcomeOf(session, interactionId)).toBe("approved");

    // The operator alone is one person too.
    const second = await pushCard();
    await operator
      .locator(`.inbox-waiting [data-interaction-id="${second.interactionId}"]`)
      .getByRole("button", { name: "Approve", exact: true })
      .click();
    await operator
      .locator(`.inbox-waiting [data-interaction-id="${second.interactionId}"] .approval-count`)
      .getByText("1 of 2 approvals")
      .waitFor({ timeout: 10_000 });
    expect(await outcomeOf(second.session, second.interactionId)).toBe("pending");
    await answering.locator(`[data-interaction-id="${second.interactionId}"]`).waitFor({ timeout: 10_000 });

    // Removed: Bo's socket closes and the page says so; Bo's kept credential answers nothing.
    const kept = JSON.parse(credential ?? "[]") as { credential: string }[];
    await people.getByRole("button", { name: "Remove Bo" }).click();
    await bo.getByText("operator removed you as an approver").waitFor({ timeout: 10_000 });
    const late = await api(
      `/api/people/answering/operator/cards/${second.session.sessionId}/${second.interactionId}/respond`,
      { method: "POST", token: kept[0]?.credential ?? "", body: { response: { decision: "approve" } } },
    );
    expect(late.status).toBe(403);
    expect(await outcomeOf(second.session, second.interactionId)).toBe("pending");
  });
});
