// Packs the `parley` command as a package the gateway serves from its own origin (Workers Assets):
// web/public/cli/parley.tgz holds bin/parley.mjs and one self-contained bundle of bin/parley-cli.ts, so `npx -y <gateway>/cli/parley.tgz …` needs Node and nothing else,
// and `parley/agent-sdk` and `parley/client` for a program that installs the same address.
// web/public/cli/version.json is the version the gateway reports, for the command to compare. One
// address, always the gateway's own version (wrangler.toml answers any other name under /cli/ 404).

import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { packTarball } from "./build-cli-tar.mjs";

const ROOT = new URL("../", import.meta.url).pathname;

/**
 * Bundles the command and writes its tarball and version under `<outdir>/cli/`.
 * @param {{ root?: string; outdir?: string }} [options]
 * @returns {Promise<{ version: string; tarball: string; bytes: number }>}
 */
export async function buildCliPackage({ root = ROOT, outdir = `${ROOT}web/public/` } = {}) {
  const { version } = JSON.parse(await readFile(`${root}package.json`, "utf8"));
  const cli = await bundle(`${root}bin/parley-cli.ts`, { platform: "node", split: true });
  // The Agent SDK is the program's own (it runs Claude Code); everything else is inlined.
  const [agentSdk] = await bundle(`${root}client/agent-sdk.ts`, {
    external: ["@anthropic-ai/claude-agent-sdk"],
  });
  const [client] = await bundle(`${root}client/client.ts`);
  const manifest = {
    name: "parley",
    version,
    description:
      "The parley command: bridges from Claude Code, ACP agents and terminals to a Parley gateway.",
    type: "module",
    bin: { parley: "bin/parley.mjs" },
    exports: { "./agent-sdk": "./dist/agent-sdk.js", "./client": "./dist/client.js" },
    engines: { node: ">=22" },
  };
  // The same layout as the checkout (bin/parley.mjs loads ../dist/parley-cli.js and reads
  // ../package.json), so one entry script serves both.
  const tarball = packTarball([
    { path: "package.json", contents: `${JSON.stringify(manifest, null, 2)}\n` },
    { path: "bin/parley.mjs", contents: await readFile(`${root}bin/parley.mjs`), mode: 0o755 },
    ...cli,
    { path: "dist/agent-sdk.js", contents: agentSdk.contents },
    { path: "dist/client.js", contents: client.contents },
  ]);
  const dir = `${outdir}cli/`;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(`${dir}parley.tgz`, tarball);
  await writeFile(`${dir}version.json`, `${JSON.stringify({ version, cli: "/cli/parley.tgz" })}\n`);
  return { version, tarball: `${dir}parley.tgz`, bytes: tarball.length };
}

/**
 * How the command is split: `dist/parley-cli.js` and, in `dist/parley-cli/`, a chunk for each
 * command and the code they share. Named by their contents, so the same sources give the same files.
 */
export const CLI_SPLIT = {
  splitting: true,
  entryNames: "[name]",
  chunkNames: "parley-cli/[name]-[hash]",
};

/**
 * `entry` as minified ES modules for the package's `dist/`: one self-contained file, or with `split`
 * the command's entry and its chunks (CLI_SPLIT), each with its path in the package.
 * @param {string} entry
 * @param {{ platform?: "node" | "neutral"; external?: string[]; split?: boolean }} [options]
 * @returns {Promise<{ path: string; contents: Uint8Array }[]>}
 */
async function bundle(entry, { platform = "neutral", external = [], split = false } = {}) {
  const outdir = "/dist";
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform,
    format: "esm",
    target: "node22",
    minify: true,
    external,
    // A source map would double the download for a stack trace nobody on the machine reads.
    sourcemap: false,
    legalComments: "none",
    logLevel: "warning",
    write: false,
    outdir,
    ...(split ? CLI_SPLIT : {}),
  });
  if (result.outputFiles.length === 0) throw new Error(`esbuild wrote no bundle of ${entry}`);
  // The entry first, then its chunks by name, so the tarball lists them the same way every time.
  return result.outputFiles
    .map((file) => ({ path: `dist${file.path.slice(outdir.length)}`, contents: file.contents }))
    .sort((a, b) => a.path.split("/").length - b.path.split("/").length || a.path.localeCompare(b.path));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { tarball, bytes } = await buildCliPackage();
  console.log(`${tarball.slice(ROOT.length)}: ${bytes} bytes`);
}
