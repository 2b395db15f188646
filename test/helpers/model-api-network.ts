// The network's edge for the model-api runtime: the Worker and its Durable Objects share the test's
// isolate, so the SDK's calls (and tools' fetches) leave through this global fetch. Hosts a test
// serves are answered here; any other request goes out as before.
import { afterAll, beforeAll, vi } from "vitest";

export type HostHandler = (input: RequestInfo | URL, init?: RequestInit) => Response | Promise<Response>;

/** Serves `hosts` for the duration of the calling test file. */
export function serveHosts(hosts: Record<string, HostHandler>): void {
  const realFetch = globalThis.fetch;
  beforeAll(() => {
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const handler = hosts[url.host];
      return handler ? handler(input, init) : realFetch(input, init);
    });
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });
}
