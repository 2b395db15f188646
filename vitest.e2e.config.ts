// Browser tests: Node (not workerd) drives Debian's chromium against a real `wrangler dev`.
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/e2e/global-setup.ts"],
    // A worker keeps its modules from one file to the next, and so its one chromium
    // (harness.ts's launchBrowser): each file opens its own contexts in it instead of launching a
    // browser, and loads the client, the protocol and playwright once per worker, not per file.
    isolate: false,
    // One wrangler serves every file (the restart tests start their own). Most of a browser test
    // is waiting on the page, a server or an agent, so more files run at once than there are
    // cores. Countdown and pacing checks allow for a busy machine.
    maxWorkers: availableParallelism() + 1,
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // A fresh CI machine runs these right after the Workers suite; a second is too short a wait for
    // a service worker to start or a page to catch up there, and a poll that passes returns at once.
    expect: { poll: { timeout: 10_000 } },
  },
});
