// An inbox that holds many sessions and waiting cards stays still between changes: the countdowns
// tick together and write only the time that changed, and an event of one session leaves every other
// row of the list (and the person's focus on it) where it was.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import {
  askReply,
  baseUrl,
  launchBrowser,
  postMessage,
  say,
  scriptedSession,
  type TestSession,
} from "./harness";

const CARDS = 12;

/** A session waiting on one question card. */
async function waitingSession(index: number): Promise<TestSession> {
  const session = await scriptedSession([askReply(`toolu_many_${index}`), say("Noted.")]);
  await postMessage(session, `Ask me ${index}`);
  return session;
}

const groupOf = (page: Page, session: TestSession) =>
  page.locator(`.inbox-group[data-session-id="${session.sessionId}"]`);

describe.skipIf(!hasChromium)("an inbox with many waiting cards", () => {
  let browser: Browser;
  let sessions: TestSession[];
  beforeAll(async () => {
    browser = await launchBrowser();
    sessions = await Promise.all(Array.from({ length: CARDS }, (_, i) => waitingSession(i)));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("ticks every card's countdown together, writing only the time left as it changes", async () => {
    const page = await browser.newPage({ reducedMotion: "reduce" });
    // The page's timers run on a clock the test moves, so a second of the page's time is exactly one.
    await page.clock.install();
    await page.goto(`${baseUrl()}/`);
    for (const session of sessions)
      await groupOf(page, session).locator(".question-card .countdown").waitFor();
    await page.clock.pauseAt(Date.now() + 1_000);

    // Every change inside these sessions' cards, for three seconds of the page's time. Nothing but
    // the countdowns moves in them: each says its time left in words and in its accessible name.
    await page.evaluate(
      (ids) => {
        const seen: string[] = [];
        (window as unknown as { seen: string[] }).seen = seen;
        const observer = new MutationObserver((records) => {
          for (const record of records) {
            const target = record.target instanceof Element ? record.target : record.target.parentElement;
            seen.push(`${target?.className ?? "?"} ${record.type} ${record.attributeName ?? ""}`.trim());
          }
        });
        for (const id of ids) {
          const group = document.querySelector(`.inbox-group[data-session-id="${id}"]`);
          if (group)
            observer.observe(group, {
              subtree: true,
              childList: true,
              attributes: true,
              characterData: true,
            });
        }
      },
      sessions.map((session) => session.sessionId),
    );
    await page.clock.runFor(3_000);
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);

    // Each card's time left changed three times, once a second: its words and its name, no more.
    const kinds = [...new Set(seen)].sort();
    expect(kinds).toEqual(["countdown attributes aria-label", "countdown-time childList"]);
    expect(seen.filter((kind) => kind.startsWith("countdown-time")).length).toBe(CARDS * 3);
    expect(seen.filter((kind) => kind.startsWith("countdown ")).length).toBe(CARDS * 3);
    await page.context().close();
  });

  it("keeps each session's row as others change, so the Open button the person is on keeps the focus", async () => {
    const page = await browser.newPage({ reducedMotion: "reduce" });
    await page.goto(`${baseUrl()}/`);
    const [first] = sessions as [TestSession];
    const row = page.locator(`.inbox-session[data-session-id="${first.sessionId}"]`);
    await row.getByRole("button", { name: /^Open / }).focus();
    await row.evaluate((el) => {
      (el as HTMLElement & { marked?: boolean }).marked = true;
    });

    // Another session starts and asks: the list and the cards above it change.
    const other = await waitingSession(CARDS);
    await page.locator(`.inbox-session[data-session-id="${other.sessionId}"]`).waitFor();
    await groupOf(page, other).locator(".question-card").waitFor();

    expect(await row.evaluate((el) => (el as HTMLElement & { marked?: boolean }).marked)).toBe(true);
    expect(
      await page.evaluate(() =>
        document.activeElement?.closest(".inbox-session")?.getAttribute("data-session-id"),
      ),
    ).toBe(first.sessionId);
    await page.context().close();
  });
});
