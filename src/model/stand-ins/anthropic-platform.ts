// Stand-in for the Anthropic SDK's runtime detection (its `internal/detect-platform.mjs`), which
// scripts/build-worker.mjs points the SDK's own imports to in the Worker it deploys. The SDK's
// detection asks whether `globalThis.process` is Node's, which in a Worker with `nodejs_compat` loads
// the runtime's node:process into the isolate (anthropic-env.ts beside this says what that costs).
// A Worker is neither Node nor a browser: these are the headers the SDK itself sends from a runtime
// it does not know, as it does from a Worker without `nodejs_compat`.
import { VERSION } from "@anthropic-ai/sdk/version";

/** The SDK refuses to run in a browser unless told to; a Worker is not one. */
export const isRunningInBrowser = (): boolean => false;

const HEADERS = {
  "X-Stainless-Lang": "js",
  "X-Stainless-Package-Version": VERSION,
  "X-Stainless-OS": "Unknown",
  "X-Stainless-Arch": "unknown",
  "X-Stainless-Runtime": "unknown",
  "X-Stainless-Runtime-Version": "unknown",
} as const;

/** The platform headers the SDK sends with every request. */
export const getPlatformHeaders = (): Record<string, string> => HEADERS;
