// Bundles the browser client (web/src) into web/public, which Workers Assets serves, with the
// `parley` command packed beside it (web/public/cli/, scripts/build-cli.mjs).

import { cp, mkdir, readFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { buildCliPackage } from "./build-cli.mjs";

const outdir = new URL("../web/public/", import.meta.url).pathname;
await mkdir(outdir, { recursive: true });
await cp(new URL("../web/static/", import.meta.url).pathname, outdir, { recursive: true });
const result = await build({
  entryPoints: [new URL("../web/src/main.ts", import.meta.url).pathname],
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  sourcemap: true,
  outfile: `${outdir}app.js`,
  logLevel: "warning",
  metafile: true,
});

// The page validates nothing with zod: protocol types arrive as type-only imports. One value import
// from a module that builds schemas would pull the whole library (~450 KB) into the page.
const zodInputs = Object.keys(result.metafile.inputs).filter((path) => path.includes("node_modules/zod/"));
if (zodInputs.length > 0) {
  console.error(
    `web/src must not bundle zod; it came in through a value import of a schema module (${zodInputs[0]})`,
  );
  process.exit(1);
}

// The client's size is a budget worth watching: say it on every build.
const bundle = await readFile(`${outdir}app.js`);
console.log(`web/public/app.js: ${bundle.length} bytes, ${gzipSync(bundle).length} gzipped`);

// The command any machine runs with `npx -y <gateway>/cli/parley.tgz`: an asset, never Worker code.
const cli = await buildCliPackage({ outdir });
console.log(`web/public/cli/parley.tgz: ${cli.bytes} bytes (parley ${cli.version})`);
