// Invited approvers behind Cloudflare Access, on a server of this file's own whose team keys a
// local key server publishes (ACCESS_CERTS_URL): Ana and Bo each sign in as themselves in a
// Chromium context of their own (their own `Cf-Access-Jwt-Assertion`). Ana invites bo@ by email;
// Bo accepts and answers Ana's card in his own inbox; `Bash(git push:*)` needs two people, so
// neither alone approves it and together they do. Removing Bo closes his socket (his page says so)
// and refuses his next answer.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startWranglerDev } from "../../scripts/wrangler-dev.mjs";
import { type AccessTeam, startAccessTeam } from "./access-keys";
import { hasChromium } from "./browser-env";
import { launchBrowser } from "./harness";

type External = { sessionId: string; token: string; agentToken: string };

const ANA = "ana@parley.test";
const BO = "bo@parley.test";
const EVE = "eve@parley.test";

describe.skipIf(!hasChromium)("an invited approver behind Cloudflare Access", () => {
  let team: AccessTeam;
  let server: DevServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const assertions: Record<string, string> = {};

  beforeAll(async () => {
    team = await startAccessTeam();
    assertions[ANA] = await team.assertionFor(ANA);
    assertions[BO] = await team.assertionFor(BO);
    assertions[EVE] = await team.assertionFor(EVE);
    server = await startWranglerDev({
      label: "people-access",
      vars: {
        ...team.vars,
        ALLOW_SCRIPTED_SESSIONS: "true",
        APPROVAL_POLICIES: JSON.stringify([{ rule: "Bash(git push:*)", approvals: 2 }]),
      },
    });
    browser = await launchBrowser({ signedIn: false });
  }, 90_000);
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
    await team?.stop();
  });

  const api = (path: string, as: string, init: { method?: string; token?: string; body?: unknown } = {}) =>
    fetch(`${server.baseUrl}${path}`, {
      method: init.method ?? "GET",
      headers: {
        "cf-access-jwt-assertion": assertions[as] ?? "",
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });

  /** A Chromium context signed in through Access as `email`: every request carries their assertion. */
  async function signedInPage(email: string): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width: 900, height: 1200 },
      reducedMotion: "reduce",
      extraHTTPHeaders: { "cf-access-jwt-assertion": assertions[email] ?? "" },
    });
    contexts.push(context);
    const page = await context.newPage();
    page.on("pageerror", (error) => console.error(`[${email}] page error:`, error));
    return page;
  }

  async function pushCard(): Promise<{ session: External; interactionId: string }> {
    // Creating a session also takes the gateway token; the assertion says whose it is (Ana's).
    const created = await api("/api/sessions", ANA, {
      method: "POST",
      token: server.gatewayToken,
      body: { agent: { kind: "external", name: "Claude Code" } },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const session = (await created.json()) as External;
    const opened = await api(`/api/sessions/${session.sessionId}/interactions`, ANA, {
      method: "POST",
      token: session.agentToken,
      body: { kind: "approval", request: { toolName: "Bash", input: { command: "git push origin main" } } },
    });
    expect(opened.status, await opened.clone().text()).toBe(201);
    return { session, interactionId: ((await opened.json()) as { interactionId: string }).interactionId };
  }

  async function outcomeOf(session: External, interactionId: string): Promise<string> {
    const read = await api(`/api/sessions/${session.sessionId}/interactions/${interactionId}`, ANA, {
      token: session.agentToken,
    });
    const body = (await read.json()) as { status: string; resolution?: { outcome: string } };
    return body.resolution?.outcome ?? body.status;
  }

  it("Bo signs in as himself, answers Ana's card from his own inbox as her second person, and is removed at once", {
    timeout: 150_000,
  }, async () => {
    const ana = await signedInPage(ANA);
    await ana.goto(`${server.baseUrl}/`);
    const people = ana.locator(".inbox-people");
    await people.getByLabel("Name").fill("Bo");
    await people.getByLabel("Email (behind Cloudflare Access)").fill(BO);
    await people.getByRole("button", { name: "Invite" }).click();
    const url = await people.locator(".people-url").inputValue({ timeout: 10_000 });
    expect(url).toContain("/#/join?invite=");

    // The invite names bo@: whoever else opens it, signed in as themselves, cannot take it.
    const stranger = await api("/api/people/invites/redeem", EVE, {
      method: "POST",
      body: { invite: new URLSearchParams(url.split("?")[1]).get("invite") },
    });
    expect(stranger.status, await stranger.clone().text()).toBe(403);

    const bo = await signedInPage(BO);
    await bo.goto(url);
    await bo.getByRole("button", { name: "Accept" }).click();
    const answering = bo.locator(".inbox-answering");
    await answering.getByText(`You answer ${ANA}'s cards as Bo`).waitFor({ timeout: 10_000 });
    // Behind Access the browser keeps no credential: Bo's identity is his sign-in.
    const kept = await bo.evaluate(() => localStorage.getItem("parley.answering"));
    expect(JSON.parse(kept ?? "[]")).toEqual([expect.objectContaining({ credential: null })]);
    await ana.reload();
    await people.locator(`[data-person='${BO}']`).getByText("Bo answers").waitFor({ timeout: 10_000 });

    const { session, interactionId } = await pushCard();
    const boCard = answering.locator(`[data-interaction-id="${interactionId}"]`);
    await boCard.locator(".approval-count").getByText("0 of 2 approvals").waitFor({ timeout: 10_000 });
    await boCard.getByRole("button", { name: "Approve", exact: true }).click();
    await boCard.locator(".approval-count").getByText("1 of 2 approvals").waitFor({ timeout: 10_000 });
    // Bo alone is one person: the call still waits.
    expect(await outcomeOf(session, interactionId)).toBe("pending");

    const anaCard = ana.locator(`.inbox-waiting [data-interaction-id="${interactionId}"]`);
    await anaCard.locator(".approval-count").getByText("1 of 2 approvals").waitFor({ timeout: 10_000 });
    await anaCard.getByRole("button", { name: "Approve", exact: true }).click();
    await expect.poll(() => outcomeOf(session, interactionId)).toBe("approved");

    // Ana alone is one person too.
    const second = await pushCard();
    const anaSecond = ana.locator(`.inbox-waiting [data-interaction-id="${second.interactionId}"]`);
    await anaSecond.getByRole("button", { name: "Approve", exact: true }).click();
    await anaSecond.locator(".approval-count").getByText("1 of 2 approvals").waitFor({ timeout: 10_000 });
    expect(await outcomeOf(second.session, second.interactionId)).toBe("pending");
    await answering.locator(`[data-interaction-id="${second.interactionId}"]`).waitFor({ timeout: 10_000 });

    // Removed: Bo's socket closes and his page says so; signed in as himself, he answers nothing more.
    await people.getByRole("button", { name: "Remove Bo" }).click();
    await bo.getByText(`${ANA} removed you as an approver`).waitFor({ timeout: 10_000 });
    await bo.getByText("Disconnected").waitFor();
    const late = await api(
      `/api/people/answering/${encodeURIComponent(ANA)}/cards/${second.session.sessionId}/${second.interactionId}/respond`,
      BO,
      { method: "POST", body: { response: { decision: "approve" } } },
    );
    expect(late.status).toBe(403);
    expect(await outcomeOf(second.session, second.interactionId)).toBe("pending");
  });
});
