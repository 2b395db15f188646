// A page of another origin, open in the developer's own browser, tries to use the local Parley's
// ambient authority (a loopback gateway needs no credential): a WebSocket to the inbox, which would
// list every card, and a no-cors text/plain POST answering a card. Both are refused and the card
// stays unanswered.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InboxView, SessionSnapshot } from "../../src/protocol/index";
import { hasChromium } from "./browser-env";
import { askReply, asPerson, baseUrl, launchBrowser, postMessage, say, scriptedSession } from "./harness";

const PAGE = "<!doctype html><title>Somewhere else</title><p>A page on another origin.</p>";

/** Serves one harmless page on a port of its own: another origin than the Worker's. */
function startOtherOrigin(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end(PAGE);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

async function inbox(): Promise<InboxView> {
  const response = await fetch(`${baseUrl()}/api/inbox`, { headers: asPerson() });
  if (!response.ok) throw new Error(`inbox: ${response.status}`);
  return (await response.json()) as InboxView;
}

describe.skipIf(!hasChromium)("a page of another origin", () => {
  let browser: Browser;
  let other: { server: Server; origin: string };
  beforeAll(async () => {
    browser = await launchBrowser();
    other = await startOtherOrigin();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => other?.server.close(resolve));
  });

  it("can neither open the inbox's WebSocket nor answer a card with a no-cors text/plain POST", async () => {
    const session = await scriptedSession([askReply("toolu_cross_site"), say("Going ahead.")]);
    await postMessage(session, "Plan the release");
    // The card reaches the person's inbox (the CLI with the token, and no Origin, may read it).
    await expect
      .poll(async () => (await inbox()).cards.some((card) => card.sessionId === session.sessionId))
      .toBe(true);

    const page = await browser.newPage();
    await page.goto(`${other.origin}/`);
    const target = baseUrl();
    const tried = await page.evaluate(
      async ({ target, sessionId }) => {
        const socket = await new Promise<{ opened: boolean; frames: number; code: number }>((resolve) => {
          const ws = new WebSocket(`${target.replace(/^http/, "ws")}/api/inbox/ws`);
          let opened = false;
          let frames = 0;
          ws.onopen = () => {
            opened = true;
          };
          ws.onmessage = () => {
            frames += 1;
          };
          ws.onclose = (event) => resolve({ opened, frames, code: event.code });
        });
        const answer = JSON.stringify({ response: { answers: { "Which plan should I follow?": "Fast" } } });
        // The request goes out; the page never reads the answer (no-cors, and the API's
        // Cross-Origin-Resource-Policy makes the browser fail the fetch), so whatever it did is
        // seen in the card below.
        await fetch(`${target}/api/inbox/cards/${sessionId}/toolu_cross_site/respond`, {
          method: "POST",
          mode: "no-cors",
          headers: { "content-type": "text/plain" },
          body: answer,
        }).catch(() => undefined);
        return { socket };
      },
      { target, sessionId: session.sessionId },
    );
    await page.close();

    expect(tried.socket).toEqual({ opened: false, frames: 0, code: 1006 });
    // The answer was refused: the card still waits, in the inbox and in its session.
    expect((await inbox()).cards.some((card) => card.sessionId === session.sessionId)).toBe(true);
    const snapshot = await fetch(`${baseUrl()}/api/sessions/${session.sessionId}`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    const { pending } = (await snapshot.json()) as SessionSnapshot;
    expect(pending.map((card) => card.toolCallId)).toContain("toolu_cross_site");
  });
});
