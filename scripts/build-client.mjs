// Bundles what the package exports for Node and other hosts: `parley/client` (dist/client.js),
// `parley/agent-sdk` (dist/agent-sdk.js), and the terminal device and Claude Code bridges behind
// `npx parley` (dist/parley-cli.js). Run by `npm install` (prepare).

import { build } from "esbuild";

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
await build({
  ...common,
  entryPoints: [`${root}bin/parley-cli.ts`],
  platform: "node",
  outfile: `${root}dist/parley-cli.js`,
});
