import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionClient } from "../../client/session-client";
import type { SessionEvent } from "../../src/protocol/index";
import { hasChromium } from "./browser-env";
import { askReply, baseUrl, launchBrowser, openDevice, say, scriptedSession, typeMessage } from "./harness";

describe.skipIf(!hasChromium)("the session client outside the browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("runs in Node as a second device whose answer the page shows as from another device", async () => {
    const session = await scriptedSession([askReply("toolu_node"), say("The terminal decided.")]);
    const page = await openDevice(browser, session);
    const events: SessionEvent[] = [];
    // Frequent pings with a short pong deadline: the server's auto-response must keep it connected.
    const cli = new SessionClient({
      baseUrl: baseUrl(),
      ...session,
      deviceId: "node-cli",
      pingIntervalMs: 100,
      pongTimeoutMs: 1_000,
    });
    const states: string[] = [];
    cli.on("connection", (info) => states.push(info.state));
    cli.on("events", (batch) => events.push(...batch));
    cli.connect();
    try {
      await typeMessage(page, "Ask the terminal");
      await expect
        .poll(() => events.some((e) => e.type === "question_prompt"), { timeout: 10_000 })
        .toBe(true);
      const outcome = await cli.send({
        type: "submit_answers",
        toolCallId: "toolu_node",
        answers: { "Which plan should I follow?": "Thorough" },
      });
      expect(outcome.alreadyResolved).toBe(false);

      await page.locator(".receipt[data-outcome=answered]").waitFor();
      expect(await page.locator(".receipt").textContent()).toBe("Answered on another device");
      expect(await page.locator(".answer-summary dd").textContent()).toBe("Thorough");
      await page.getByText("The terminal decided.").waitFor();
      await expect.poll(() => events.some((e) => e.type === "done")).toBe(true);
      const seqs = events.map((e) => e.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      // An idle stretch with nothing but pings and pongs on the wire.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(states).toEqual(["connecting", "connected"]);
    } finally {
      cli.close();
    }
  });
});
