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
    deps: { optimizer: { ssr: { include: ["@anthropic-ai/sdk", "zod", "hono"] } } },
  },
});
