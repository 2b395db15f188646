// The `parley` command the gateway serves (scripts/build-cli.mjs) is a package npm unpacks as it is:
// its own version, a bin, no dependency to fetch, every file under package/, and the same bytes
// from the same sources.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCliPackage } from "../../scripts/build-cli.mjs";

const ROOT = new URL("../..", import.meta.url).pathname;
let outdir = "";
let built: { version: string; tarball: string; bytes: number };

beforeAll(async () => {
  outdir = `${await mkdtemp(join(tmpdir(), "parley-cli-build-"))}/`;
  built = await buildCliPackage({ root: `${ROOT}/`, outdir });
}, 120_000);

afterAll(() => rm(outdir, { recursive: true, force: true }));

const tarFile = (name: string) => execFileSync("tar", ["xzOf", built.tarball, name], { encoding: "utf8" });

/** Every file the tarball holds, in its order. */
const listed = () => execFileSync("tar", ["tzf", built.tarball], { encoding: "utf8" }).trim().split("\n");

/** The command's own files: its entry and, in dist/parley-cli/, a chunk per command and shared code. */
const commandFiles = () => listed().filter((name) => /^package\/dist\/parley-cli[./]/.test(name));

describe("the packed parley command", () => {
  it("holds the entry, the bundles and a manifest, each under package/, and nothing else", () => {
    const chunks = commandFiles().filter((name) => name.startsWith("package/dist/parley-cli/"));
    expect(listed()).toEqual([
      "package/package.json",
      "package/bin/parley.mjs",
      "package/dist/parley-cli.js",
      ...chunks,
      "package/dist/agent-sdk.js",
      "package/dist/client.js",
    ]);
    // Each command is a chunk of its own, loaded only when that command runs.
    for (const command of ["parley-attach", "parley-mcp", "parley-hook", "parley-acp", "parley-daemon"])
      expect(
        chunks.some((name) => name.startsWith(`package/dist/parley-cli/${command}-`)),
        command,
      ).toBe(true);
    for (const name of chunks) expect(name).toMatch(/^package\/dist\/parley-cli\/[\w-]+\.js$/);
  });

  it("carries the project's version and a bin, and names no dependency npm would have to fetch", async () => {
    const project = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
    const manifest = JSON.parse(tarFile("package/package.json"));
    expect(built.version).toBe(project.version);
    expect(manifest).toMatchObject({
      version: project.version,
      type: "module",
      bin: { parley: "bin/parley.mjs" },
    });
    for (const field of ["dependencies", "peerDependencies", "optionalDependencies", "bundleDependencies"])
      expect(manifest, field).not.toHaveProperty(field);
    expect(tarFile("package/bin/parley.mjs")).toBe(await readFile(join(ROOT, "bin", "parley.mjs"), "utf8"));
  });

  it("inlines every package the command imports, leaving Node's own modules and its own chunks", () => {
    const files = commandFiles();
    for (const file of files) {
      const code = tarFile(file);
      const imported = [...code.matchAll(/\bfrom\s*"([^"]+)"|\bimport\s*\(\s*"([^"]+)"\)/g)].map(
        (m) => m[1] ?? m[2] ?? "",
      );
      // A CommonJS package bundled into ES modules would fail at its first require() of a package.
      expect(code, file).not.toContain("Dynamic require of");
      for (const specifier of imported) {
        if (specifier.startsWith(".")) {
          // A chunk of the command, which the package holds beside it.
          const target = join(file.slice(0, file.lastIndexOf("/")), specifier);
          expect(files, `${file} imports ${specifier}`).toContain(target);
          continue;
        }
        expect(specifier, file).toMatch(
          /^node:|^(fs|os|path|url|util|events|stream|net|tls|http|https|crypto|child_process|readline|process|buffer|zlib|assert|async_hooks|worker_threads|string_decoder|querystring|dns|perf_hooks|diagnostics_channel|module|tty|timers)(\/.*)?$/,
        );
      }
    }
    // The entry reaches every command's chunk.
    expect(tarFile("package/dist/parley-cli.js")).toMatch(
      /import\("\.\/parley-cli\/parley-hook-[\w-]+\.js"\)/,
    );
  });

  it("runs each subcommand from its own chunk once unpacked, with the same refusals as the checkout's", () => {
    const unpacked = join(outdir, "unpacked");
    execFileSync("mkdir", ["-p", unpacked]);
    execFileSync("tar", ["xzf", built.tarball, "-C", unpacked]);
    const run = (...args: string[]) => {
      const ran = spawnSync(process.execPath, [join(unpacked, "package/bin/parley.mjs"), ...args], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 30_000,
      });
      return { code: ran.status, out: ran.stdout, err: ran.stderr };
    };
    expect(run("--version")).toMatchObject({ code: 0, out: `${built.version}\n` });
    // Each of these loads its subcommand's chunk and refuses what it was given, with usage.
    expect(run("channels", "nope")).toMatchObject({
      code: 2,
      err: expect.stringContaining("unknown platform nope"),
    });
    expect(run("channels", "telegram")).toMatchObject({
      code: 2,
      err: expect.stringContaining("--set-webhook"),
    });
    expect(run("channels", "discord")).toMatchObject({
      code: 2,
      err: expect.stringContaining("--register-commands is required"),
    });
    for (const bridge of ["hook", "mcp"])
      expect(run(bridge), bridge).toMatchObject({ code: 2, err: expect.stringContaining("no credential") });
    expect(run("daemon")).toMatchObject({ code: 2, err: expect.stringContaining("Usage: parley daemon") });
    expect(run("vapid-keys")).toMatchObject({ code: 0, out: expect.stringMatching(/^VAPID_PUBLIC_KEY=/) });
    expect(run("nope")).toMatchObject({ code: 2, err: expect.stringContaining("unknown command: nope") });
  }, 60_000);

  it("is the same bytes from a second build, beside the version it reports and nothing else", async () => {
    const first = await readFile(built.tarball);
    expect((await readdir(`${outdir}cli`)).sort()).toEqual(["parley.tgz", "version.json"]);
    expect(JSON.parse(await readFile(`${outdir}cli/version.json`, "utf8"))).toEqual({
      version: built.version,
      cli: "/cli/parley.tgz",
    });
    await buildCliPackage({ root: `${ROOT}/`, outdir });
    expect((await readFile(built.tarball)).equals(first)).toBe(true);
  }, 120_000);
});
