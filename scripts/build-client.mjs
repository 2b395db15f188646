// Bundles what the package exports for Node and other hosts: `parley/client` (dist/client.js),
// `parley/agent-sdk` (dist/agent-sdk.js), and the terminal device and Claude Code bridges behind
// `npx parley` (dist/parley-cli.js). Run by `npm install` (prepare).

import { rm } from "node:fs/promises";
import { build } from "esbuild";
import { CLI_SPLIT } from "./build-cli.mjs";

const root = new URL("../", import.meta.url).pathname;
const common = {
  bundle: true,
  format: "esm",
  target: "es2022",
  logLevel: "warning",
  sourcemap: true,
  minify: true,
};
await build({
  ...common,
  entryPoints: [`${root}client/client.ts`],
  platform: "neutral",
  outfile: `${root}dist/client.js`,
});
await build({
  ...common,
  entryPoints: [`${root}client/agent-sdk.ts`],
  platform: "neutral",
  outfile: `${root}dist/agent-sdk.js`,
  external: ["@anthropic-ai/claude-agent-sdk"],
});
// The command is split by command (bin/parley-cli.ts loads each on use): dist/parley-cli.js and its
// chunks in dist/parley-cli/, whose names change with their contents, so the last build's go first.
await rm(`${root}dist/parley-cli`, { recursive: true, force: true });
await build({
  ...common,
  ...CLI_SPLIT,
  entryPoints: [`${root}bin/parley-cli.ts`],
  platform: "node",
  outdir: `${root}dist`,
});
