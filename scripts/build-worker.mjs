// Bundles the Worker (src/index.ts) into build/worker/ as split ES modules, which wrangler then
// uploads unbundled (wrangler.toml: `no_bundle`). Why split: V8 compiles a module when it is
// imported, so one 1.8 MB bundle is compiled whole at every Worker start. Split, a start compiles
// only the entry (the object shells and the lazy loaders in src/index.ts); the router's and each
// object's code compile on their first use (docs/performance-startup.md#the-worker-bundle-and-start-up).
//   node scripts/build-worker.mjs [--outdir DIR] [--root DIR]
// --root builds another checkout (the benchmark's snapshot of a commit) with its own config.
import { readdir, readFile, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { experimental_readRawConfig } from "wrangler";

// The same resolution wrangler's own bundling uses (its build conditions, ES2024 target, the
// `process.env.NODE_ENV` a deploy gets), so the split bundle runs the code the one-file bundle did.
const NODE_ENV = JSON.stringify(process.env.NODE_ENV || "production");

/** What wrangler uploads besides the entry: wrangler.toml's ESModule rule matches this name. */
export const PART_PREFIX = "parley-part-";

/**
 * Imports replaced for one importing package only (wrangler.toml's [alias] replaces a name for all):
 * the MCP client SDK loads jose only to sign DPoP proofs and private-key-JWT client assertions, for
 * an OAuth provider Parley's MCP connections never pass; the Worker keeps jose for Access assertions.
 */
const SCOPED_ALIASES = [
  {
    importer: "/node_modules/@modelcontextprotocol/client/",
    from: "jose",
    to: "src/mcp/mcp-signing-unused.ts",
  },
];

/**
 * Modules of a package replaced wherever that package imports them, matched by the file an import
 * resolves to (the package reaches each by several relative paths). The Anthropic SDK's reader of
 * `process.env` and its runtime detection touch `globalThis.process`, which loads the runtime's
 * node:process into the isolate (src/model/stand-ins/anthropic-env.ts says what that costs).
 * A build that uses none of a stand-in fails: an upgrade that moves the file cannot undo it unseen.
 */
const STAND_INS = [
  {
    file: "/node_modules/@anthropic-ai/sdk/internal/utils/env.mjs",
    to: "src/model/stand-ins/anthropic-env.ts",
  },
  {
    file: "/node_modules/@anthropic-ai/sdk/internal/detect-platform.mjs",
    to: "src/model/stand-ins/anthropic-platform.ts",
  },
];

/**
 * MCP's client and server packages each ship their own copy of some chunks (the JSON Schema
 * validator, its dialect table, the module helpers). The server's import of such a chunk resolves to
 * the client's twin when the two files are the same but for chunk names, and so is every chunk each
 * imports; any other difference keeps both (checked at every build, so an upgrade cannot mix them).
 */
const TWIN_CHUNKS = {
  from: "/node_modules/@modelcontextprotocol/server/dist/",
  to: "/node_modules/@modelcontextprotocol/client/dist/",
};
const CHUNK_IMPORT = /^\.\/([A-Za-z]+)-[\w-]{8}\.mjs$/;
const CHUNK_NAME = /\.\/([A-Za-z]+)-[\w-]{8}\.mjs/g;

/**
 * Packages that import a second copy of a package the Worker already bundles (an older version
 * nested in their own node_modules): the import resolves to the one copy when its file is the same,
 * byte for byte, and requires nothing of its own (checked at every build, so an upgrade cannot mix them).
 */
const SAME_COPIES = [{ importer: "/node_modules/p-queue/", name: "eventemitter3" }];

/**
 * package.json files a package's code reads, cut to the fields it reads: the whole file is bundled
 * for a `require` (Slack's Web API client names itself and its version in its User-Agent).
 */
const PACKAGE_FIELDS = [{ file: "/node_modules/@slack/web-api/package.json", fields: ["name", "version"] }];

/** @param {string} path */
async function chunkText(path) {
  return (await readFile(path, "utf8")).replace(/\/\/# sourceMappingURL=.*/, "");
}

/**
 * The client's twin of the server chunk `file` (`./name-HASH.mjs`) in `dir`, or null.
 * @param {string} dir @param {string} file @param {Map<string, Promise<string | null>>} found
 * @returns {Promise<string | null>}
 */
function twinOf(dir, file, found) {
  const key = join(dir, file);
  let twin = found.get(key);
  if (!twin) {
    twin = (async () => {
      const prefix = file.match(CHUNK_IMPORT)?.[1];
      const twinDir = `${dir}/`.replace(TWIN_CHUNKS.from, TWIN_CHUNKS.to);
      if (!prefix || twinDir === `${dir}/`) return null;
      const candidates = (await readdir(twinDir)).filter(
        (name) => name.endsWith(".mjs") && `./${name}`.match(CHUNK_IMPORT)?.[1] === prefix,
      );
      if (candidates.length !== 1) return null;
      const [ours, theirs] = await Promise.all([chunkText(key), chunkText(join(twinDir, candidates[0]))]);
      if (ours.replace(CHUNK_NAME, "./$1.mjs") !== theirs.replace(CHUNK_NAME, "./$1.mjs")) return null;
      for (const imported of ours.match(CHUNK_NAME) ?? []) {
        if (!(await twinOf(dir, imported, found))) return null;
      }
      return join(twinDir, candidates[0]);
    })();
    found.set(key, twin);
  }
  return twin;
}

/** @type {(root: string) => import("esbuild").Plugin} */
const sharedModules = (root) => ({
  name: "parley-shared-modules",
  setup(build) {
    /** @type {Map<string, Promise<string | null>>} */
    const twins = new Map();
    for (const { importer, from, to } of SCOPED_ALIASES) {
      const filter = new RegExp(`^${from.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`);
      build.onResolve({ filter }, (args) =>
        args.importer.includes(importer) ? { path: join(root, to) } : undefined,
      );
    }
    const standInNames = STAND_INS.map(({ file }) => basename(file).replace(/[.]/g, "\\."));
    build.onResolve({ filter: new RegExp(`(^|/)(${standInNames.join("|")})$`) }, async (args) => {
      if (args.pluginData === STAND_INS) return undefined;
      const { kind, resolveDir, importer } = args;
      const resolved = await build.resolve(args.path, { kind, resolveDir, importer, pluginData: STAND_INS });
      const standIn = STAND_INS.find(({ file }) => resolved.path.endsWith(file));
      return standIn ? { path: join(root, standIn.to) } : undefined;
    });
    for (const { importer, name } of SAME_COPIES) {
      build.onResolve({ filter: new RegExp(`^${name}$`) }, async (args) => {
        if (!args.importer.includes(importer) || args.pluginData === SAME_COPIES) return undefined;
        const options = { kind: args.kind, pluginData: SAME_COPIES };
        const [nested, hoisted] = await Promise.all([
          build.resolve(args.path, { ...options, resolveDir: args.resolveDir }),
          build.resolve(args.path, { ...options, resolveDir: root }),
        ]);
        const [ours, theirs] = await Promise.all([readFile(nested.path), readFile(hoisted.path)]);
        const same = ours.equals(theirs) && !/\brequire\(|\bimport\b/.test(ours.toString("utf8"));
        return { path: same ? hoisted.path : nested.path };
      });
    }
    for (const { file, fields } of PACKAGE_FIELDS) {
      const filter = new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`);
      build.onLoad({ filter }, async (args) => {
        const manifest = JSON.parse(await readFile(args.path, "utf8"));
        return {
          contents: JSON.stringify(Object.fromEntries(fields.map((key) => [key, manifest[key]]))),
          loader: "json",
        };
      });
    }
    build.onResolve({ filter: CHUNK_IMPORT }, async (args) => {
      if (!args.importer.includes(TWIN_CHUNKS.from)) return undefined;
      const twin = await twinOf(dirname(args.importer), args.path, twins);
      return twin ? { path: twin } : undefined;
    });
  },
});

/**
 * Bundles the checkout at `root` into `outdir` (emptied first), from `entry` (a path under `root`;
 * the benchmark builds one object alone from an entry of its own).
 * @param {{ root: string, outdir: string, entry?: string }} where
 * @returns {Promise<import("esbuild").Metafile>}
 */
export async function buildWorker({ root, outdir, entry = "src/index.ts" }) {
  const { rawConfig } = experimental_readRawConfig({ config: join(root, "wrangler.toml") });
  await rm(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { index: join(root, entry) },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    target: "es2024",
    supported: { "import-source": true, using: true },
    // The test runner applies wrangler.toml's module rules to every module it loads, so the rule
    // that uploads these names a prefix nothing else has.
    chunkNames: `${PART_PREFIX}[hash]`,
    // Minified, the code is less than half the JavaScript for V8 to parse (about 1.8 of 4.2 MB) and
    // about 560 rather than 900 KiB to upload; the source maps go with it (wrangler.toml's
    // upload_source_maps), so a stack trace in the dashboard's logs still names our files and lines.
    minify: true,
    // No `__name(fn, "…")` call per function and class: it costs CPU, and nothing reads the names.
    keepNames: false,
    sourcemap: "linked",
    // The bundled packages' license notices go to a .LEGAL.txt beside each module (kept in the build,
    // not uploaded: no module rule takes them) rather than into code every isolate parses.
    legalComments: "external",
    // The runtime's own modules; with nodejs_compat it provides node:* itself.
    external: ["cloudflare:*", "node:*"],
    // wrangler.toml's [alias] (node built-ins the Chat SDK and Slack's client import at the top).
    alias: Object.fromEntries(
      Object.entries(rawConfig.alias ?? {}).map(([from, to]) => [
        from,
        to.startsWith(".") ? join(root, to) : to,
      ]),
    ),
    // Agent definitions (agents/*.md), text modules under wrangler's bundling, are inlined as strings.
    loader: { ".md": "text" },
    define: {
      "process.env.NODE_ENV": NODE_ENV,
      "global.process.env.NODE_ENV": NODE_ENV,
      "globalThis.process.env.NODE_ENV": NODE_ENV,
    },
    plugins: [sharedModules(root)],
    metafile: true,
    logLevel: "warning",
  });
  const unused = STAND_INS.filter(({ to }) => !(to in result.metafile.inputs));
  if (unused.length > 0) {
    throw new Error(`the build used no ${unused.map(({ file, to }) => `${to} (for ${file})`).join(", ")}`);
  }
  return result.metafile;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({
    options: { outdir: { type: "string" }, root: { type: "string" } },
  });
  const root = resolve(values.root ?? fileURLToPath(new URL("..", import.meta.url)));
  const outdir = resolve(values.outdir ?? join(root, "build/worker"));
  const metafile = await buildWorker({ root, outdir });
  const outputs = Object.entries(metafile.outputs).filter(([path]) => path.endsWith(".js"));
  const entry = outputs.find(([path]) => path.endsWith("/index.js"));
  const kib = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  const total = outputs.reduce((sum, [, output]) => sum + output.bytes, 0);
  console.log(
    `build/worker: ${outputs.length} modules, ${kib(total)}; compiled at start: index.js, ${kib(entry?.[1].bytes ?? 0)}`,
  );
}
