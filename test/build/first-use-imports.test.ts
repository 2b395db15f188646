// What each part of the Worker loads before its first event, read from the bundler's own import
// graph (esbuild, as wrangler bundles): dynamic imports are left out, since they run on first use.
// A static import that pulls a heavy or unneeded part back in fails here, not in a profile.
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { build, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";
import { LAZY_MODULES } from "../helpers/lazy-modules";

let graph: Metafile["inputs"] | null = null;

async function inputs(): Promise<Metafile["inputs"]> {
  graph ??= (
    await build({
      entryPoints: ["src/index.ts"],
      bundle: true,
      write: false,
      metafile: true,
      format: "esm",
      platform: "browser",
      conditions: ["workerd", "worker"],
      // Node's modules come from the runtime (nodejs_compat), also when a package names them bare.
      external: ["cloudflare:*", "node:*", ...builtinModules],
      loader: { ".md": "text" },
      logLevel: "silent",
    })
  ).metafile.inputs;
  return graph;
}

/** Every module `entry` imports statically, directly or through others. */
async function loadedWith(entry: string): Promise<string[]> {
  const all = await inputs();
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (seen.has(file) || !all[file]) continue;
    seen.add(file);
    for (const imported of all[file].imports) {
      if (imported.kind !== "dynamic-import" && !imported.external) stack.push(imported.path);
    }
  }
  return [...seen];
}

const matching = (files: string[], pattern: RegExp) => files.filter((file) => pattern.test(file));

describe("what loads before a first event", () => {
  it("is no more than the shells at the Worker's start: the router and both objects load on first use", async () => {
    const files = await loadedWith("src/index.ts");
    expect(files.sort()).toEqual(["src/index.ts", "src/object-shell.ts", "src/storage/shadow-reads.ts"]);
  });

  it("leaves the model SDK, the agent loop and the agent files out of the router", async () => {
    const files = await loadedWith("src/router/app.ts");
    expect(
      matching(files, /@anthropic-ai|js-yaml|jose|webcrypto-web-push|src\/agent\/|src\/agent-definitions\//),
    ).toEqual([]);
  });

  it("leaves the model SDK and Web Push out of a session object until it calls a model or pushes", async () => {
    const files = await loadedWith("src/session/session-object.ts");
    expect(matching(files, /@anthropic-ai|webcrypto-web-push|@opentelemetry/)).toEqual([]);
  });

  it("leaves the Chat SDK and its adapters out of the router and the inbox object until a channel needs them", async () => {
    const files = [
      ...(await loadedWith("src/router/app.ts")),
      ...(await loadedWith("src/inbox/inbox-object.ts")),
      ...(await loadedWith("src/channels/channel-object.ts")),
    ];
    expect(matching(files, /node_modules\/(chat|@chat-adapter|discord-interactions)\//)).toEqual([]);
  });

  it("leaves the agent loop, the tools and MCP out of an inbox object", async () => {
    const files = await loadedWith("src/inbox/inbox-object.ts");
    expect(
      matching(
        files,
        /@anthropic-ai|js-yaml|webcrypto-web-push|@modelcontextprotocol|src\/agent\/|src\/tools\/|src\/mcp\/(?!mcp-config)/,
      ),
    ).toEqual([]);
  });
});

describe("what loads on first use", () => {
  it("is every module the worker test of lazily loaded modules evaluates, and nothing else", async () => {
    const lazy = new Set<string>();
    for (const [file, input] of Object.entries(await inputs())) {
      if (!file.startsWith("src/")) continue;
      for (const imported of input.imports) {
        if (imported.kind !== "dynamic-import") continue;
        lazy.add(imported.path.startsWith("src/") ? imported.path : (imported.original ?? imported.path));
      }
    }
    expect([...lazy].sort()).toEqual(Object.keys(LAZY_MODULES).sort());
  });
});

/** wrangler.toml's `[alias]` table: the bare imports wrangler's bundler points at Parley's stand-ins. */
function wranglerAliases(): Record<string, string> {
  const toml = readFileSync("wrangler.toml", "utf8");
  const section = toml.split(/^\[alias\]$/m)[1]?.split(/^\[/m)[0] ?? "";
  return Object.fromEntries(
    [...section.matchAll(/^"([^"]+)"\s*=\s*"([^"]+)"/gm)].map(([, name, path]) => [name, path as string]),
  );
}

describe("what the Worker's start loads of Node", () => {
  it("is nothing: every Node module the bundle imports (hoisted to its top) is aliased to a stand-in", async () => {
    const aliases = wranglerAliases();
    const result = await build({
      entryPoints: ["src/index.ts"],
      bundle: true,
      write: false,
      metafile: true,
      outdir: "/tmp/first-use-imports",
      format: "esm",
      platform: "browser",
      conditions: ["workerd", "worker"],
      alias: aliases,
      // An aliased name must reach its alias: only the others stay the runtime's.
      external: ["cloudflare:*", "node:*", ...builtinModules.filter((name) => !(name in aliases))],
      loader: { ".md": "text" },
      logLevel: "silent",
    });
    const imported = Object.values(result.metafile.outputs).flatMap((output) =>
      output.imports.filter((entry) => entry.external && !entry.path.startsWith("cloudflare:")),
    );
    expect(imported.map((entry) => entry.path)).toEqual([]);
  });
});
