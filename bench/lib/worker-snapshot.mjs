// Freezes the code under test before the run: Parley (from the working tree or a commit) is bundled
// once into a temporary directory and the baseline is copied there, so edits to the working tree
// during a run (or between a restart and the next start) cannot reload or change the servers.
import { spawn } from "node:child_process";
import { copyFile, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { WRANGLER, wranglerEnv } from "../../scripts/wrangler-dev.mjs";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
/**
 * What a commit's Worker is built from (client/ too: the remote MCP endpoint bundles its tool, and
 * scripts/ for the commit's own build of a split Worker).
 */
const SERVER_PATHS = ["src", "agents", "client", "scripts", "wrangler.toml", "package.json"];

/**
 * A Worker config with more compatibility flags than it names, put first in its list (or in a list
 * of their own after its compatibility date), for what the runtime would do with them.
 * @param {string} toml
 * @param {string[]} flags
 */
export function withCompatFlags(toml, flags) {
  if (flags.length === 0) return toml;
  const named = flags.map((flag) => JSON.stringify(flag)).join(", ");
  if (/^compatibility_flags\s*=\s*\[/m.test(toml)) {
    return toml.replace(/^compatibility_flags\s*=\s*\[\s*(\]?)/m, (_list, empty) =>
      empty ? `compatibility_flags = [${named}]` : `compatibility_flags = [${named}, `,
    );
  }
  if (!/^compatibility_date\s*=/m.test(toml)) throw new Error("the config names no compatibility_date");
  return toml.replace(/^compatibility_date\s*=.*$/m, `$&\ncompatibility_flags = [${named}]`);
}

/**
 * Rewrites Parley's wrangler.toml for the snapshot: no web build and no static assets (the benchmark
 * only talks to /api, which runs the Worker first anyway), `main` pointing at `entry` (bundled by
 * wrangler unless `noBundle`, whatever the original said), and module aliases made absolute (the
 * snapshot's config lives elsewhere, and wrangler reads them from it).
 * @param {string} toml
 * @param {string} entry
 * @param {boolean} noBundle
 * @param {string} [root] the directory the original config's relative alias paths start from
 */
export function benchConfig(toml, entry, noBundle, root = REPO_ROOT) {
  const dropped = new Set(["[build]", "[assets]"]);
  const out = [];
  let skipping = false;
  let section = "";
  let sawMain = false;
  for (const line of toml.split("\n")) {
    const header = line.trim().match(/^\[\[?[^\]]+\]\]?/);
    if (header) {
      skipping = dropped.has(header[0]);
      section = header[0];
    }
    if (skipping || /^no_bundle\s*=/.test(line)) continue;
    const alias = section === "[alias]" && line.match(/^(\s*"[^"]+"\s*=\s*)"(\.\.?\/[^"]*)"\s*$/);
    if (alias) {
      out.push(`${alias[1]}${JSON.stringify(join(root, alias[2]))}`);
      continue;
    }
    if (/^main\s*=/.test(line)) {
      out.push(`main = ${JSON.stringify(entry)}`);
      if (noBundle) out.push("no_bundle = true");
      sawMain = true;
      continue;
    }
    out.push(line);
  }
  if (!sawMain) throw new Error('wrangler.toml has no top-level "main = …" line to point at the snapshot');
  return out.join("\n");
}

/**
 * Runs a Node script (wrangler, or a checkout's own build) to its end, with its output in `logPath`.
 * @param {string} what names it in the error
 * @param {string[]} args script and arguments
 * @param {string} logPath
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv }} [options]
 */
function runLogged(what, args, logPath, { cwd = REPO_ROOT, env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"], env });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("exit", async (code) => {
      clearTimeout(timer);
      await writeFile(logPath, output);
      if (code === 0) resolve(undefined);
      else reject(new Error(`${what} failed (exit ${code}):\n${output.slice(-3000)}`));
    });
  });
}

/**
 * @param {string[]} args
 * @param {string} logPath
 */
function runWrangler(args, logPath) {
  return runLogged(`wrangler ${args.slice(0, 2).join(" ")}`, [WRANGLER, ...args], logPath, {
    env: wranglerEnv(),
  });
}

/**
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, stdout?: "pipe" | number }} [options]
 * @returns {Promise<string>} stdout
 */
function run(command, args, { cwd = REPO_ROOT, stdout = "pipe" } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", stdout, "pipe"] });
    let out = "";
    let err = "";
    child.stdout?.on("data", (chunk) => (out += chunk));
    child.stderr?.on("data", (chunk) => (err += chunk));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(" ")} failed: ${err.trim()}`)),
    );
  });
}

/**
 * Which code a run measures, for the results header: a commit, and whether the working tree's
 * server code differs from it.
 * @param {string | undefined} ref
 */
export async function describeCode(ref) {
  const commit = (await run("git", ["log", "-1", "--format=%h %s", ref ?? "HEAD"])).trim();
  if (ref) return `commit ${commit}`;
  const dirty = (await run("git", ["status", "--porcelain", "--", "src", "wrangler.toml"])).trim();
  return `the working tree at commit ${commit}${dirty ? ", with uncommitted changes to the server" : ""}`;
}

/**
 * Writes the server sources of `ref` into `target` (with the repository's node_modules linked in)
 * and returns the entry point.
 * @param {string} ref
 * @param {string} target
 */
async function exportCommit(ref, target) {
  await mkdir(target, { recursive: true });
  const archive = `${target}.tar`;
  // The Worker also bundles files from outside src (the agent definitions in agents/, since they
  // were added); only paths the commit has are named, or git archive refuses.
  const present = (await run("git", ["ls-tree", "--name-only", ref])).split("\n");
  const paths = SERVER_PATHS.filter((path) => present.includes(path));
  await run("git", ["archive", "--format=tar", `--output=${archive}`, ref, ...paths]);
  await run("tar", ["-xf", archive, "-C", target]);
  await symlink(`${REPO_ROOT}node_modules`, `${target}/node_modules`, "dir");
  return `${target}/src/index.ts`;
}

/**
 * Runs a checkout's own split build (scripts/build-worker.mjs) into `outdir`.
 * @param {string} root
 * @param {string} outdir
 * @param {string} logPath
 */
function buildSplitWorker(root, outdir, logPath) {
  const args = [`${root}/scripts/build-worker.mjs`, "--outdir", outdir];
  return runLogged("the Worker's build", args, logPath, { cwd: root });
}

/**
 * Bundles Parley's Worker (from the working tree, or from commit `ref`) into `dir` and writes a
 * config that serves the bundle. A checkout whose wrangler.toml uploads its own build unbundled
 * (the split Worker) is built by its own script; an older one by wrangler, as it deployed then.
 * @param {string} dir temporary directory
 * @param {string} logDir
 * @param {string} [ref]
 * @returns {Promise<string>} the config path to start `wrangler dev` with
 */
export async function snapshotParley(dir, logDir, ref) {
  await mkdir(`${dir}/parley`, { recursive: true });
  const sourceEntry = ref ? await exportCommit(ref, `${dir}/source`) : `${REPO_ROOT}src/index.ts`;
  const root = ref ? `${dir}/source` : REPO_ROOT;
  const toml = await readFile(`${root}/wrangler.toml`, "utf8");
  const split = /^no_bundle\s*=\s*true/m.test(toml);
  const { modules } = parleyFiles(dir);
  if (split) await buildSplitWorker(root, modules, `${logDir}/parley-split-build.log`);
  const entry = split ? `${modules}/index.js` : sourceEntry;
  const buildConfig = `${dir}/parley/build.toml`;
  await writeFile(buildConfig, benchConfig(toml, entry, split, root));
  await runWrangler(
    ["deploy", "--dry-run", "--outdir", `${dir}/parley/dist`, "--config", buildConfig],
    `${logDir}/parley-build.log`,
  );
  // The same code as one upload-shaped file, which `wrangler check startup --worker` profiles.
  await runWrangler(
    ["deploy", "--dry-run", "--outfile", parleyFiles(dir).bundle, "--config", buildConfig],
    `${logDir}/parley-bundle.log`,
  );
  const devConfig = `${dir}/parley/wrangler.toml`;
  await writeFile(devConfig, benchConfig(toml, "dist/index.js", true));
  return devConfig;
}

/**
 * Where `snapshotParley` leaves the frozen Worker: the split build with its source maps (`modules`),
 * what the deploy dry run wrote of it (`dist`), the same as one form-data upload bundle (`bundle`),
 * and a place for a start-up CPU profile.
 * @param {string} dir the directory given to `snapshotParley`
 */
export function parleyFiles(dir) {
  return {
    modules: `${dir}/parley/split`,
    dist: `${dir}/parley/dist`,
    bundle: `${dir}/parley/worker.bundle`,
    profile: `${dir}/parley/startup.cpuprofile`,
  };
}

/**
 * Copies the baseline Worker and its config into `dir`.
 * @param {string} dir
 * @returns {Promise<string>} the config path
 */
export async function snapshotBaseline(dir) {
  const source = `${REPO_ROOT}bench/baseline`;
  await mkdir(`${dir}/baseline`, { recursive: true });
  await copyFile(`${source}/worker.mjs`, `${dir}/baseline/worker.mjs`);
  await copyFile(`${source}/wrangler.toml`, `${dir}/baseline/wrangler.toml`);
  return `${dir}/baseline/wrangler.toml`;
}

/**
 * Writes the baseline `snapshotBaseline` copied into `dir` as one upload-shaped file, which the
 * start-up figure imports as its floor.
 * @param {string} dir the directory given to `snapshotBaseline`
 * @param {string} logDir where the dry run's output goes
 * @returns {Promise<string>} the upload's path
 */
export async function bundleBaseline(dir, logDir) {
  const bundle = `${dir}/baseline/worker.bundle`;
  await runWrangler(
    ["deploy", "--dry-run", "--outfile", bundle, "--config", `${dir}/baseline/wrangler.toml`],
    `${logDir}/baseline-bundle.log`,
  );
  return bundle;
}
