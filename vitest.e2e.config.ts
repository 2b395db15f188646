// Browser tests: Node (not workerd) drives Debian's chromium against a real `wrangler dev`.
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/e2e/global-setup.ts"],
    // One wrangler serves every file (the restart tests start their own), and one file runs per
    // core: most of a browser test is waiting on the page, so two cores take two files at once
    // (3 m 41 s → 2 m 17 s). Countdown and pacing checks allow for a busy machine.
    maxWorkers: availableParallelism(),
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // A fresh CI machine runs these right after the Workers suite; a second is too short a wait for
    // a service worker to start or a page to catch up there, and a poll that passes returns at once.
    expect: { poll: { timeout: 10_000 } },
  },
});
