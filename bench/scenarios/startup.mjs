// Scenario 6, start-up and size: the CPU the Worker spends before its first request, as
// `wrangler check startup` profiles it ("Active" time of the frozen bundle, run locally), and the
// size of the bundle `wrangler deploy --dry-run` produced, raw and gzipped.
import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { WRANGLER, wranglerEnv } from "../../scripts/wrangler-dev.mjs";
import { figure } from "../lib/figures.mjs";

const SCENARIO = "6. Start-up and size";
const CHECK_TIMEOUT_MS = 120_000;

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
 * @param {{ snapshot: { bundle: string, dist: string, profile: string }, options: { repeats: number }, log: (line: string) => void }} context
 * @returns {Promise<import("../lib/figures.mjs").Figure[]>}
 */
export async function runStartup({ snapshot, options, log }) {
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
      label: 'Worker start-up CPU (`wrangler check startup`, local, "Active")',
      unit: "ms",
      parley: active,
      target: { atMost: 25 },
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
