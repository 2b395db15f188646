// Scenario 6, start-up and size: the CPU the Worker's start costs — workerd's own CPU clock over the
// request that first imports the frozen upload (bench/lib/startup-cpu.mjs), against the baseline
// Worker imported the same way — and, for comparison with earlier runs, the "Active" time
// `wrangler check startup` reports for it; and the size of the bundle `wrangler deploy --dry-run`
// produced, raw and gzipped.
import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { WRANGLER, wranglerEnv } from "../../scripts/wrangler-dev.mjs";
import { alternate, figure } from "../lib/figures.mjs";
import { importCpuMs, readUpload } from "../lib/startup-cpu.mjs";

const SCENARIO = "6. Start-up and size";
const CHECK_TIMEOUT_MS = 120_000;
/** Each start is a fresh workerd (about a second), and CPU time varies little: a few more than `--repeats`. */
const CPU_REPEATS = 5;

/**
 * The "Active" CPU time in `wrangler check startup`'s report, in milliseconds.
 * @param {string} output
 */
export function readActiveMs(output) {
  const match = /Active:\s*([\d.]+)\s*ms/.exec(output);
  if (!match) throw new Error(`wrangler check startup printed no "Active" time:\n${output.slice(-2000)}`);
  return Number(match[1]);
}

/**
 * Raw and gzipped bytes of a dry-run bundle directory: the Worker's modules, not source maps or notes.
 * @param {string} dist
 */
export async function bundleSize(dist) {
  let raw = 0;
  let gzip = 0;
  for (const name of await readdir(dist)) {
    if (name.endsWith(".map") || name === "README.md") continue;
    const bytes = await readFile(join(dist, name));
    raw += bytes.length;
    gzip += gzipSync(bytes).length;
  }
  return { raw, gzip };
}

/**
 * @param {string} bundle form-data bundle from `wrangler deploy --dry-run --outfile`
 * @param {string} profile where the start-up CPU profile goes
 * @returns {Promise<number>} Active milliseconds
 */
function checkStartup(bundle, profile) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [WRANGLER, "check", "startup", "--worker", bundle, "--outfile", profile],
      { stdio: ["ignore", "pipe", "pipe"], env: wranglerEnv() },
    );
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), CHECK_TIMEOUT_MS);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code !== 0)
        reject(new Error(`wrangler check startup failed (exit ${code}):\n${output.slice(-2000)}`));
      else {
        try {
          resolve(readActiveMs(output));
        } catch (error) {
          reject(error);
        }
      }
    });
  });
}

/**
 * @param {{ snapshot: { bundle: string, dist: string, profile: string }, baseline: { bundle: string }, options: { repeats: number }, log: (line: string) => void }} context
 * @returns {Promise<import("../lib/figures.mjs").Figure[]>}
 */
export async function runStartup({ snapshot, baseline, options, log }) {
  log("start-up: workerd's CPU for the request that first imports each upload");
  const parleyUpload = await readUpload(await readFile(snapshot.bundle));
  const baselineUpload = await readUpload(await readFile(baseline.bundle));
  const cpu = await alternate(
    Math.max(options.repeats, CPU_REPEATS),
    () => importCpuMs(baselineUpload),
    () => importCpuMs(parleyUpload),
  );
  log("start-up: wrangler check startup on the frozen bundle");
  await checkStartup(snapshot.bundle, snapshot.profile); // warm-up: the first run also starts workerd cold
  /** @type {number[]} */ const active = [];
  for (let i = 0; i < options.repeats; i++)
    active.push(await checkStartup(snapshot.bundle, snapshot.profile));
  const size = await bundleSize(snapshot.dist);
  const kib = (/** @type {number} */ bytes) => bytes / 1024;
  return [
    figure({
      scenario: SCENARIO,
      label:
        "Worker start-up CPU: workerd's CPU for the request that first imports the Worker (baseline: the bare Worker)",
      unit: "ms",
      parley: cpu.parley,
      bare: cpu.bare,
      target: { atMost: 25 },
    }),
    figure({
      scenario: SCENARIO,
      label: '`wrangler check startup` "Active" (a sampled profile of 2–4 samples; see bench/README.md)',
      unit: "ms",
      parley: active,
    }),
    figure({
      scenario: SCENARIO,
      label: "Worker bundle (deploy dry run): raw",
      unit: "KiB",
      parley: [kib(size.raw)],
    }),
    figure({
      scenario: SCENARIO,
      label: "Worker bundle (deploy dry run): gzip",
      unit: "KiB",
      parley: [kib(size.gzip)],
      target: { atMost: 600 },
    }),
  ];
}
