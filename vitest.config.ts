import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          // Short timeouts and scripted sessions keep the worker tests fast and offline.
          INTERACTION_TIMEOUT_MS: "600000",
          ALLOW_SCRIPTED_SESSIONS: "true",
          SESSION_SECRET: "test-session-secret",
        },
      },
    }),
  ],
  test: {
    include: ["test/unit/**/*.test.ts", "test/worker/**/*.test.ts"],
    // The first test of each file also pays for loading the Worker into a fresh isolate; on a
    // busy 2-core machine that alone can take several seconds.
    testTimeout: 20_000,
    deps: { optimizer: { ssr: { include: ["@anthropic-ai/sdk", "zod", "hono"] } } },
  },
});
