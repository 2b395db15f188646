// The Worker that deploys is scripts/build-worker.mjs's split build, uploaded by wrangler as it is
// (wrangler.toml). A module the upload leaves out, or a static import that pulls the router or an
// object into the entry, would show only after a deploy: at the first request, or in start-up CPU.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Metafile } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { experimental_readRawConfig } from "wrangler";
import { buildWorker, PART_PREFIX } from "../../scripts/build-worker.mjs";

const ROOT = new URL("../..", import.meta.url).pathname;
let outdir = "";
let metafile: Metafile;

beforeAll(async () => {
  outdir = await mkdtemp(join(tmpdir(), "parley-split-"));
  metafile = await buildWorker({ root: ROOT, outdir });
}, 120_000);

afterAll(() => rm(outdir, { recursive: true, force: true }));

const output = (name: string) => {
  const found = Object.entries(metafile.outputs).find(([path]) => basename(path) === name);
  if (!found) throw new Error(`the build wrote no ${name}`);
  return found[1];
};

/** The text of every module the build wrote (what the upload carries, source maps aside). */
async function writtenModules(): Promise<string[]> {
  const names = (await readdir(outdir)).filter((name) => name.endsWith(".js"));
  return Promise.all(names.map((name) => readFile(join(outdir, name), "utf8")));
}

/** Every module `name` imports statically, directly or through others (what compiles with it). */
function staticallyWith(name: string): string[] {
  const seen = new Set<string>();
  const stack = [name];
  while (stack.length > 0) {
    const next = stack.pop() as string;
    if (seen.has(next)) continue;
    seen.add(next);
    for (const imported of output(next).imports)
      if (imported.kind === "import-statement" && !imported.external) stack.push(basename(imported.path));
  }
  return [...seen];
}

describe("the split Worker build", () => {
  it("is what wrangler.toml deploys, uploaded unbundled with a rule for every part", () => {
    const { rawConfig } = experimental_readRawConfig({ config: join(ROOT, "wrangler.toml") });
    expect(rawConfig.main).toBe("build/worker/index.js");
    expect(rawConfig.no_bundle).toBe(true);
    expect(rawConfig.rules).toContainEqual(
      expect.objectContaining({ type: "ESModule", globs: [`${PART_PREFIX}*.js`] }),
    );
  });

  it("writes every module any part imports, each named so the upload takes it", async () => {
    const written = new Set((await readdir(outdir)).filter((name) => name.endsWith(".js")));
    const imported = Object.values(metafile.outputs).flatMap((out) =>
      out.imports.filter((entry) => !entry.external).map((entry) => basename(entry.path)),
    );
    expect(imported.length).toBeGreaterThan(10);
    for (const name of imported) expect(written).toContain(name);
    for (const name of written) if (name !== "index.js") expect(name.startsWith(PART_PREFIX)).toBe(true);
  });

  it("compiles a few kilobytes at the Worker's start: the shells, with the router and the objects behind dynamic imports", () => {
    const atStart = staticallyWith("index.js");
    const bytes = atStart.reduce((sum, name) => sum + output(name).bytes, 0);
    expect(bytes).toBeLessThan(8 * 1024);
    const loadedLater = output("index.js").imports.filter((entry) => entry.kind === "dynamic-import");
    // The router, the session, the inbox, the channel object and the machines object.
    expect(loadedLater).toHaveLength(5);
    const later = loadedLater.reduce((sum, entry) => sum + output(basename(entry.path)).bytes, 0);
    expect(later).toBeGreaterThan(100 * 1024);
  });

  it("imports nothing from outside the upload but the runtime's own cloudflare:workers", () => {
    const outside = Object.values(metafile.outputs).flatMap((out) =>
      out.imports.filter((entry) => entry.external).map((entry) => entry.path),
    );
    expect(new Set(outside)).toEqual(new Set(["cloudflare:workers"]));
  });

  it("links each module to its source map, which the upload carries", async () => {
    const code = await readFile(join(outdir, "index.js"), "utf8");
    expect(code).toMatch(/\/\/# sourceMappingURL=index\.js\.map\s*$/);
    const { sources } = JSON.parse(await readFile(join(outdir, "index.js.map"), "utf8")) as {
      sources: string[];
    };
    expect(sources.some((source) => source.endsWith("src/index.ts"))).toBe(true);
  });
});

describe("what the split Worker build carries", () => {
  /** The source files some of whose code is in the upload (the metafile's inputs also list tree-shaken ones). */
  const inputs = () => [
    ...new Set(
      Object.values(metafile.outputs).flatMap((out) =>
        Object.entries(out.inputs)
          .filter(([, input]) => input.bytesInOutput > 0)
          .map(([path]) => path),
      ),
    ),
  ];

  it("stays within the bench's budget of 600 KiB: its modules, each gzipped alone as the upload sends them", async () => {
    let gzip = 0;
    for (const name of await readdir(outdir)) {
      if (name.endsWith(".js")) gzip += gzipSync(await readFile(join(outdir, name))).length;
    }
    expect(gzip).toBeGreaterThan(100 * 1024);
    expect(gzip).toBeLessThanOrEqual(600 * 1024);
  });

  it("has one copy of the JSON Schema validator MCP's client and server packages each ship", () => {
    const validators = inputs().filter((path) =>
      /@modelcontextprotocol\/[a-z]+\/dist\/cfWorkerProvider-/.test(path),
    );
    expect(validators).toEqual([expect.stringContaining("@modelcontextprotocol/client/dist/")]);
    expect(inputs().filter((path) => path.includes("@modelcontextprotocol/server/dist/"))).not.toEqual([]);
  });

  it("has none of Slack's socket mode, of a second HTML entity table, or of jose's signing and encryption", () => {
    expect(inputs().filter((path) => /@slack\/socket-mode|character-entities|\/ws\//.test(path))).toEqual([]);
    expect(inputs()).toContain("src/channels/stand-ins/socket-mode-unused.ts");
    expect(inputs()).toContain("src/channels/stand-ins/named-character-reference.ts");
    expect(inputs()).toContain("src/mcp/mcp-signing-unused.ts");
    const jose = inputs().filter((path) => path.includes("node_modules/jose/"));
    expect(jose.some((path) => path.endsWith("jwt/verify.js"))).toBe(true);
    expect(
      jose.filter((path) => /\/(jwe|jwt\/sign|jws\/[a-z]+\/sign|key\/generate_key_pair)/.test(path)),
    ).toEqual([]);
  });

  it("sends Slack's Web API calls through the fetch stand-in for axios, with none of axios", () => {
    expect(inputs().filter((path) => path.includes("node_modules/axios/"))).toEqual([]);
    expect(inputs()).toContain("src/channels/stand-ins/axios-fetch.ts");
    expect(inputs()).toContain("node_modules/@slack/web-api/dist/WebClient.js");
  });

  it("traces the Anthropic SDK's calls through the no-op stand-in for OpenTelemetry's API, with none of the API", () => {
    expect(inputs().filter((path) => path.includes("@opentelemetry/"))).toEqual([]);
    expect(inputs()).toContain("src/channels/stand-ins/opentelemetry-noop.ts");
    expect(inputs()).toContain("node_modules/@anthropic-ai/sdk/internal/tracing.mjs");
  });

  it("gives the Anthropic SDK Parley's settings alone: its env reader and runtime detection, which reach for process, are stand-ins", async () => {
    expect(inputs()).toContain("src/model/stand-ins/anthropic-env.ts");
    expect(inputs()).toContain("src/model/stand-ins/anthropic-platform.ts");
    expect(inputs()).toContain("node_modules/@anthropic-ai/sdk/client.mjs");
    expect(
      inputs().filter((path) =>
        /@anthropic-ai\/sdk\/internal\/(utils\/env|detect-platform)\.mjs$/.test(path),
      ),
    ).toEqual([]);
    // Touching globalThis.process loads the runtime's node:process into the isolate for its life.
    const code = await writtenModules();
    expect(code.filter((text) => text.includes("globalThis.process"))).toEqual([]);
  });

  it("has one copy of eventemitter3, not a second nested under p-queue", () => {
    expect(inputs().filter((path) => path.includes("eventemitter3/"))).toEqual([
      "node_modules/eventemitter3/index.js",
    ]);
  });

  it("carries of Slack's Web API package.json only the name and version its User-Agent reads", async () => {
    const manifest = JSON.parse(
      await readFile(join(ROOT, "node_modules/@slack/web-api/package.json"), "utf8"),
    );
    const code = (await writtenModules()).join("\n");
    expect(code).toContain(`name:"@slack/web-api",version:"${manifest.version}"`);
    expect(code).not.toContain(manifest.description);
  });
});
