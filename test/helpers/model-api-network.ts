// The network's edge for the model-api runtime: the Worker and its Durable Objects share the test's
// isolate, so the SDK's calls (and tools' fetches) leave through this global fetch. Hosts a test
// serves are answered here; any other request goes out as before.
import { afterAll, beforeAll, vi } from "vitest";

export type HostHandler = (input: RequestInfo | URL, init?: RequestInit) => Response | Promise<Response>;

// One dispatcher for every file of the runtime, looking hosts up when a request is made: an SDK
// client keeps the fetch it found when it was built, and with files sharing an isolate a client
// built during one file may still be calling during the next. Its requests must reach the hosts
// the running file serves, not the handlers of a file that already ended.
const served = new Map<string, HostHandler>();
// INVARIANT: the runtime's own fetch, taken before any stub; a new isolate takes it again.
const realFetch = globalThis.fetch;
const dispatch = (input: RequestInfo | URL, init?: RequestInit) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const handler = served.get(url.host);
  return handler ? handler(input, init) : realFetch(input, init);
};

/** Serves `hosts` for the duration of the calling test file. */
export function serveHosts(hosts: Record<string, HostHandler>): void {
  beforeAll(() => {
    for (const [host, handler] of Object.entries(hosts)) served.set(host, handler);
    if (globalThis.fetch !== dispatch) vi.stubGlobal("fetch", dispatch);
  });
  afterAll(() => {
    for (const [host, handler] of Object.entries(hosts))
      if (served.get(host) === handler) served.delete(host);
  });
}
