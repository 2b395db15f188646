import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MintedInboxLink } from "../../src/protocol/index";
import { hasChromium } from "./browser-env";
import {
  askReply,
  asPerson,
  baseUrl,
  launchBrowser,
  openDevice,
  postMessage,
  say,
  screenshot,
  scriptedSession,
  typeMessage,
} from "./harness";

/** The number in the tab title, "(3) Parley" → 3, "Parley" → 0. */
/**
 * The tab's count, the inbox's waiting cards, and those of one session, read in one turn of the
 * page so they agree in time. Other test files run beside this one and share the person's inbox,
 * so the tab's count is checked against the cards on the page, not against a number read earlier.
 */
function inboxCounts(
  page: Page,
  sessionId: string,
): Promise<{ title: number; waiting: number; here: number }> {
  return page.evaluate((id) => {
    const waiting = (root: ParentNode) =>
      [...root.querySelectorAll(".card")].filter(
        (card) => card.querySelector(".receipt:not([hidden])") === null,
      ).length;
    const group = document.querySelector(`.inbox-group[data-session-id="${id}"]`);
    const match = /^\((\d+)\) Parley$/.exec(document.title);
    return {
      title: match ? Number(match[1]) : 0,
      waiting: waiting(document.querySelector(".inbox-groups") ?? document),
      here: group ? waiting(group) : 0,
    };
  }, sessionId);
}

/** The tab counts every waiting card, and `here` of them are this session's. */
const countsWith = (here: number) => (counts: { title: number; waiting: number; here: number }) =>
  counts.title === counts.waiting && counts.here === here;

describe.skipIf(!hasChromium)("the inbox on a phone", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("answers a card of a session a laptop has open; the laptop's receipt names the inbox link, and the tab count follows", async () => {
    const session = await scriptedSession([askReply("toolu_inbox"), say("Going with the fast plan.")]);
    const laptop = await openDevice(browser, session, "laptop");

    // The person hands their inbox to a phone that cannot sign in.
    const minted = await fetch(`${baseUrl()}/api/inbox/links`, {
      method: "POST",
      headers: { ...asPerson(), "content-type": "application/json" },
      body: JSON.stringify({ role: "answer", label: "Ana's phone" }),
    });
    expect(minted.status).toBe(201);
    const link = (await minted.json()) as MintedInboxLink;
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      reducedMotion: "reduce",
    });
    const phone = await context.newPage();
    phone.on("pageerror", (error) => console.error("[phone] page error:", error));
    const sockets: string[] = [];
    phone.on("websocket", (socket) => sockets.push(socket.url()));
    await phone.goto(link.inboxUrl);
    await phone.getByRole("status").filter({ hasText: "Live" }).waitFor();
    // The token left the address bar at once, and the inbox socket carries a ticket instead.
    expect(phone.url()).toBe(`${baseUrl()}/#/inbox`);
    expect(sockets).toHaveLength(1);
    expect(sockets[0]).toMatch(/\/api\/inbox\/ws\?ticket=[^&]+&after=\d+$/);
    expect(sockets[0]).not.toContain(link.token);

    await typeMessage(laptop, "Plan the release");
    const group = phone.locator(`.inbox-group[data-session-id="${session.sessionId}"]`);
    await group.locator(".question-card").waitFor();
    await group.getByText("Which plan should I follow?", { exact: true }).waitFor();
    await expect.poll(() => inboxCounts(phone, session.sessionId)).toSatisfy(countsWith(1));
    await expect.poll(() => group.getByRole("heading", { level: 3 }).textContent()).toBe("Plan the release");
    await screenshot(phone, "inbox-phone");

    await group.locator(".question-card[data-keys-ready]").waitFor();
    await group.getByLabel("Fast").click();

    await group.locator(".receipt[data-outcome=answered]").waitFor();
    expect(await group.locator(".receipt").textContent()).toBe("Answered");
    await laptop.locator(".receipt[data-outcome=answered]").waitFor();
    expect(await laptop.locator(".receipt").textContent()).toMatch(
      /^Answered by Ana's phone \(inbox link [0-9a-f]{8}\) on another device$/,
    );
    await laptop.getByText("Going with the fast plan.").waitFor();
    await expect.poll(() => inboxCounts(phone, session.sessionId)).toSatisfy(countsWith(0));

    // The session list opens the whole conversation, through the same inbox link.
    const row = phone.locator(`.inbox-session[data-session-id="${session.sessionId}"]`);
    await expect.poll(() => row.locator(".inbox-session-status").textContent()).toBe("Idle");
    await row.getByRole("button", { name: "Open Plan the release" }).click();
    await phone.locator(".connection[data-state=connected]").waitFor();
    await phone.getByText("Going with the fast plan.").waitFor();
    await phone.getByText("Plan the release", { exact: true }).waitFor();
    await context.close();
  });

  it("shows a card answered on the laptop as answered on another device, in place, and counts it off", async () => {
    const session = await scriptedSession([askReply("toolu_laptop"), say("Thorough it is.")]);
    const laptop = await openDevice(browser, session, "laptop");
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      reducedMotion: "reduce",
    });
    const phone = await context.newPage();
    await phone.goto(`${baseUrl()}/`);
    await phone.getByRole("status").filter({ hasText: "Live" }).waitFor();

    await typeMessage(laptop, "Plan the launch");
    const group = phone.locator(`.inbox-group[data-session-id="${session.sessionId}"]`);
    await group.locator(".question-card").waitFor();
    await expect.poll(() => inboxCounts(phone, session.sessionId)).toSatisfy(countsWith(1));
    await laptop.locator(".question-card[data-keys-ready]").waitFor();
    await laptop.getByLabel("Thorough").click();

    await group.locator(".receipt[data-outcome=answered]").waitFor();
    expect(await group.locator(".receipt").textContent()).toBe("Answered on another device");
    await expect.poll(() => inboxCounts(phone, session.sessionId)).toSatisfy(countsWith(0));
    await context.close();
  });

  it("shows the waiting card on a view link's inbox without the controls to answer it", async () => {
    const session = await scriptedSession([askReply("toolu_view"), say("Fine.")]);
    const minted = await fetch(`${baseUrl()}/api/inbox/links`, {
      method: "POST",
      headers: { ...asPerson(), "content-type": "application/json" },
      body: JSON.stringify({ role: "view", label: "Wall screen" }),
    });
    const link = (await minted.json()) as MintedInboxLink;
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      reducedMotion: "reduce",
    });
    const screen = await context.newPage();
    await screen.goto(link.inboxUrl);
    await screen.getByText("Inbox (read-only link: cards can be read, not answered)").waitFor();
    await postMessage(session, "Plan the review");
    const group = screen.locator(`.inbox-group[data-session-id="${session.sessionId}"]`);
    await group.getByText("Which plan should I follow?", { exact: true }).waitFor();
    expect(await group.getByRole("button", { name: "Submit answers" }).isVisible()).toBe(false);
    // Nor to give it more time (the server refuses a view link that asks).
    expect(await group.locator(".more-time").count()).toBe(1);
    expect(await group.locator(".more-time").isVisible()).toBe(false);
    await context.close();
  });

  it("lists the person's sessions on the start page and opens one from there", async () => {
    const session = await scriptedSession([say("Hello from the inbox test.")]);
    const laptop = await openDevice(browser, session, "laptop");
    await typeMessage(laptop, "Say hello");
    await laptop.getByText("Hello from the inbox test.").waitFor();
    const home = await laptop.context().newPage();
    await home.goto(`${baseUrl()}/`);
    const row = home.locator(`.inbox-session[data-session-id="${session.sessionId}"]`);
    await row.waitFor();
    expect(await row.locator(".inbox-session-agent").textContent()).toBe("Parley");
    await home.getByRole("button", { name: "Start a session" }).waitFor();
    await row.getByRole("button", { name: "Open Say hello" }).click();
    await home.getByText("Hello from the inbox test.").waitFor();
  });
});
