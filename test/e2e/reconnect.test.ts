import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "./browser-env";
import {
  askReply,
  launchBrowser,
  openDevice,
  postAs,
  postMessage,
  say,
  screenshot,
  scriptedSession,
  typeMessage,
} from "./harness";

// Keeps every socket the page opens reachable, so the test can cut one like a network drop would.
const TRACK_SOCKETS = () => {
  const Native = window.WebSocket;
  const sockets: WebSocket[] = [];
  (window as unknown as { __sockets: WebSocket[] }).__sockets = sockets;
  window.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      sockets.push(this);
    }
  };
};

describe.skipIf(!hasChromium)("losing the connection", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("says offline while the network is gone, then reconnects and catches up on what it missed", async () => {
    const session = await scriptedSession([say("Caught up while you were away.")]);
    const page = await openDevice(browser, session);
    await page.addInitScript(TRACK_SOCKETS);
    await page.reload();
    await page.locator(".connection[data-state=connected]").waitFor();

    await page.context().setOffline(true);
    await page.evaluate(() => {
      for (const socket of (window as unknown as { __sockets: WebSocket[] }).__sockets) socket.close();
    });
    await page.locator(".connection[data-state=offline]").waitFor();
    await screenshot(page, "offline");

    // Another device talks to the session meanwhile.
    await postMessage(session, "sent from the command line");
    await page.context().setOffline(false);
    await page.locator(".connection[data-state=connected]").waitFor({ timeout: 20_000 });
    await page.getByText("Caught up while you were away.").waitFor();
    expect(await page.locator(".transcript .message .message-text").allTextContents()).toEqual([
      "sent from the command line",
      "Caught up while you were away.",
    ]);

    // A dropped socket while online shows "reconnecting" until the retry succeeds.
    await page.evaluate(() => {
      for (const socket of (window as unknown as { __sockets: WebSocket[] }).__sockets) socket.close();
    });
    await page.locator(".connection[data-state=reconnecting]").waitFor();
    await page.locator(".connection[data-state=connected]").waitFor();
    expect(await page.locator(".transcript .message").count()).toBe(2);
  });

  it("shows streamed text live with nothing doubled or missing when the socket drops mid-stream", async () => {
    const words = Array.from({ length: 80 }, (_, i) => `w${i}`).join(" ");
    const session = await scriptedSession([say(words, { textChunkSize: 3, paceMs: 20 })]);
    const page = await openDevice(browser, session);
    await page.addInitScript(TRACK_SOCKETS);
    await page.reload();
    await page.locator(".connection[data-state=connected]").waitFor();
    await typeMessage(page, "Stream something long");
    const reply = page.locator(".transcript .message.assistant .message-text");
    await reply.filter({ hasText: "w5 " }).waitFor();

    // The socket drops while the model streams on; the page resumes from its cursor.
    await page.evaluate(() => {
      for (const socket of (window as unknown as { __sockets: WebSocket[] }).__sockets) socket.close();
    });
    const seen: string[] = [];
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      seen.push(...(await reply.allTextContents()));
      if (seen.at(-1) === words) break;
      await page.waitForTimeout(25);
    }
    await page.locator(".connection[data-state=connected]").waitFor();
    expect(await reply.allTextContents()).toEqual([words]);
    // At every moment the page showed a prefix of the reply: never a repeat, never a hole.
    for (const text of seen) expect(words.startsWith(text), text).toBe(true);
    expect(new Set(seen).size).toBeGreaterThan(3);
  });

  it("shows the winning answer, not an error, when its own answer arrives after another device's", async () => {
    const session = await scriptedSession([askReply("toolu_race"), say("Fast it is.")]);
    const page = await openDevice(browser, session);
    await page.addInitScript(TRACK_SOCKETS);
    await page.reload();
    await page.locator(".connection[data-state=connected]").waitFor();
    await typeMessage(page, "Decide something");
    await page.locator(".question-card").waitFor();

    // This page drops off the network with the card still open; the command line answers first.
    await page.context().setOffline(true);
    await page.evaluate(() => {
      for (const socket of (window as unknown as { __sockets: WebSocket[] }).__sockets) socket.close();
    });
    const answered = await postAs(session, "submit-answers", {
      toolCallId: "toolu_race",
      answers: { "Which plan should I follow?": "Fast" },
    });
    expect(answered.status).toBe(200);
    // A lone single-choice question is answered by the click itself.
    await page.getByLabel("Thorough").click();
    await page.context().setOffline(false);

    const card = page.locator(".question-card");
    await card.locator(".receipt[data-outcome=answered]").waitFor({ timeout: 20_000 });
    expect(await card.locator(".receipt").textContent()).toBe("Answered on another device");
    expect(await card.locator(".answer-summary dd").textContent()).toBe("Fast");
    await page.getByText("Fast it is.").waitFor();
    expect(await page.locator(".action-line[data-state=error], .composer-error:not([hidden])").count()).toBe(
      0,
    );
  });
});
