// The notes and page tools' calls the approval tests script, and a fetch that serves their page:
// shared by approvals.test.ts and permission-modes.test.ts.
import { afterEach, beforeEach, type MockInstance, vi } from "vitest";
import { type stubOf, tableRows } from "./interaction-fixtures";

export const PAGE_URL = "https://docs.example.com/release-notes";
export const PAGE_TEXT = "Release notes: version 2 ships on Friday.";
/** A page whose response is held until the test calls `releaseSlowPage`. */
export const SLOW_URL = "https://slow.example.com/archive";

export function writeCall(id: string, text = "Ship on Friday") {
  return { name: "notes_write", id, input: { key: "plan", text } };
}

export function fetchCall(id: string) {
  return { name: "fetch_url", id, input: { url: PAGE_URL } };
}

export async function notes(stub: ReturnType<typeof stubOf>) {
  return tableRows(stub, "SELECT key, text FROM notes ORDER BY key");
}

/**
 * Serves PAGE_URL and SLOW_URL to every fetch of each test in the calling file (the Durable Object
 * runs in the test's isolate, so this also answers the fetch_url tool), other addresses as usual.
 */
export function servePages() {
  let outboundFetch: MockInstance<typeof fetch>;
  let slowPageReleased: Promise<void>;
  let release: () => void = () => {};
  beforeEach(() => {
    slowPageReleased = new Promise((resolve) => {
      release = resolve;
    });
    const realFetch = globalThis.fetch;
    outboundFetch = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url === SLOW_URL) await slowPageReleased;
      else if (url !== PAGE_URL) return realFetch(input, init);
      return new Response(PAGE_TEXT, { headers: { "content-type": "text/plain" } });
    });
  });
  afterEach(() => {
    outboundFetch.mockRestore();
  });
  /** How many times `url` was fetched in this test. */
  const fetchesOf = (url: string) =>
    outboundFetch.mock.calls.filter(([input]) => String(input) === url).length;
  return {
    fetchesOf,
    fetchesOfPage: () => fetchesOf(PAGE_URL),
    releaseSlowPage: () => release(),
  };
}
