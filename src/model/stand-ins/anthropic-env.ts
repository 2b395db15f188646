// Stand-in for the Anthropic SDK's reader of environment variables (its `internal/utils/env.mjs`),
// which scripts/build-worker.mjs points the SDK's own imports to in the Worker it deploys. The SDK
// reads a setting it is not given from `globalThis.process.env`; in a Worker with `nodejs_compat`, the
// first touch of `process` loads the runtime's node:process with its streams, events and fs modules
// into the isolate, about half a MiB of live heap every collection then marks for the isolate's life
// (docs/performance-streaming.md). Parley passes every model setting the SDK uses from its one
// config reader (src/config.ts → src/model/anthropic-client.ts), so here the SDK reads none: an
// unlisted variable (ANTHROPIC_AUTH_TOKEN, ANTHROPIC_LOG) set on the Worker does not reach it either.

/** What the SDK reads for a setting it was not given: nothing. */
export const readEnv = (_name: string): string | undefined => undefined;
