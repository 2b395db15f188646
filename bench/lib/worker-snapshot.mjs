// Freezes the code under test before the run: Parley is bundled once into a temporary directory
// and the baseline is copied there, so edits to the working tree during a run (or between a
// restart and the next start) cannot reload or change the servers being measured.
import { spawn } from "node:child_process";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { WRANGLER, wranglerEnv } from "./wrangler-dev.mjs";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Rewrites Parley's wrangler.toml for the snapshot: no web build and no static assets (the benchmark
 * only talks to /api, which runs the Worker first anyway) and `main` pointing at `entry`.
 * @param {string} toml
 * @param {string} entry
 * @param {boolean} noBundle
 */
export function benchConfig(toml, entry, noBundle) {
  const dropped = new Set(["[build]", "[assets]"]);
  const out = [];
  let skipping = false;
  let sawMain = false;
  for (const line of toml.split("\n")) {
    const header = line.trim().match(/^\[\[?[^\]]+\]\]?/);
    if (header) skipping = dropped.has(header[0]);
    if (skipping) continue;
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
 * @param {string[]} args
 * @param {string} logPath
 */
function runWrangler(args, logPath) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRANGLER, ...args], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: wranglerEnv(),
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("exit", async (code) => {
      clearTimeout(timer);
      await writeFile(logPath, output);
      if (code === 0) resolve(undefined);
      else
        reject(
          new Error(`wrangler ${args.slice(0, 2).join(" ")} failed (exit ${code}):\n${output.slice(-3000)}`),
        );
    });
  });
}

/**
 * Bundles Parley's Worker from the working tree into `dir` and writes a config that serves the bundle.
 * @param {string} dir temporary directory
 * @param {string} logDir
 * @returns {Promise<string>} the config path to start `wrangler dev` with
 */
export async function snapshotParley(dir, logDir) {
  const toml = await readFile(`${REPO_ROOT}wrangler.toml`, "utf8");
  await mkdir(`${dir}/parley`, { recursive: true });
  const buildConfig = `${dir}/parley/build.toml`;
  await writeFile(buildConfig, benchConfig(toml, `${REPO_ROOT}src/index.ts`, false));
  await runWrangler(
    ["deploy", "--dry-run", "--outdir", `${dir}/parley/dist`, "--config", buildConfig],
    `${logDir}/parley-build.log`,
  );
  const devConfig = `${dir}/parley/wrangler.toml`;
  await writeFile(devConfig, benchConfig(toml, "dist/index.js", true));
  return devConfig;
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
