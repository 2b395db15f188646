// The service worker's notification click, run against stand-ins for the worker's globals: a
// notice's link is data a push carried, so only this origin's pages may be opened from it.
/// <reference path="../../../helpers/raw-imports.d.ts" />
import { describe, expect, it } from "vitest";
import source from "../../../../web/static/sw.js?raw";

const ORIGIN = "https://parley.example";

interface ClickEvent {
  notification: { close(): void; data: { url?: unknown } | undefined };
  waitUntil(work: Promise<unknown>): void;
}

/** Loads sw.js with fake `self` and `clients`; returns what a click on a notice with `url` opens. */
async function openedByClick(url: unknown, openTabs: string[] = []): Promise<string[]> {
  const listeners = new Map<string, (event: ClickEvent) => void>();
  const opened: string[] = [];
  const self = {
    location: new URL(`${ORIGIN}/sw.js`),
    registration: { showNotification: async () => undefined },
    addEventListener: (type: string, listener: (event: ClickEvent) => void) => listeners.set(type, listener),
  };
  const clients = {
    matchAll: async () =>
      openTabs.map((tabUrl) => ({
        url: tabUrl,
        navigate: async (to: string) => void opened.push(to),
        focus: async () => undefined,
      })),
    openWindow: async (to: string) => void opened.push(to),
  };
  new Function("self", "clients", source)(self, clients);
  let work: Promise<unknown> = Promise.resolve();
  listeners.get("notificationclick")?.({
    notification: { close: () => undefined, data: { url } },
    waitUntil: (promise) => {
      work = promise;
    },
  });
  await work;
  return opened;
}

describe("a tapped notification", () => {
  it("opens the session at its card when the link is on this origin", async () => {
    const link = `${ORIGIN}/#/s/${"a".repeat(32)}?card=toolu_1`;
    expect(await openedByClick(link)).toEqual([link]);
  });

  it.each([
    ["another site", "https://evil.example/#/s/abc"],
    ["a protocol-relative link", "//evil.example/phish"],
    ["a script URL", "javascript:alert(document.cookie)"],
    ["a data URL", "data:text/html,<h1>Sign in</h1>"],
    ["this host over plain http", "http://parley.example/"],
    ["this host on another port", "https://parley.example:8443/"],
  ])("opens only this origin's start page when the link points at %s", async (_what, link) => {
    expect(await openedByClick(link)).toEqual([`${ORIGIN}/`]);
  });

  it("opens the start page when the notice carries no link at all", async () => {
    expect(await openedByClick(undefined)).toEqual([`${ORIGIN}/`]);
    expect(await openedByClick({ href: "https://evil.example/" })).toEqual([`${ORIGIN}/`]);
  });

  it("never steers an open tab of this session to another site", async () => {
    const tab = `${ORIGIN}/`;
    expect(await openedByClick("https://evil.example/", [tab])).toEqual([tab]);
  });
});
