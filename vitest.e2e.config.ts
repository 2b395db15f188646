// Browser tests: Node (not workerd) drives Debian's chromium against a real `wrangler dev`.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/e2e/global-setup.ts"],
    // One wrangler serves every file; files run one after another so timing-sensitive cases
    // (countdowns, streaming pace) are not starved of the machine's two cores.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // A fresh CI machine runs these right after the Workers suite; a second is too short a wait for
    // a service worker to start or a page to catch up there, and a poll that passes returns at once.
    expect: { poll: { timeout: 10_000 } },
  },
});
