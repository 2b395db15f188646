// Starts and stops `wrangler dev` on loopback: free ports, offline settings, its own process group,
// output kept in a log file, and a kill of the whole group however the benchmark ends.
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { sleep } from "./clock.mjs";
import { freePort } from "./free-port.mjs";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** Wrangler's CLI script, run with this Node (22, which wrangler requires). */
export const WRANGLER = fileURLToPath(
  new URL("../../node_modules/wrangler/bin/wrangler.js", import.meta.url),
);

/** Offline, quiet, and no reloads when config files change under a running benchmark. */
export function wranglerEnv() {
  return {
    ...process.env,
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_CI_DISABLE_CONFIG_WATCHING: "true",
    WRANGLER_HIDE_BANNER: "true",
    NO_COLOR: "1",
  };
}

/** @type {Set<import("node:child_process").ChildProcess>} */
const running = new Set();

function killAllNow() {
  for (const child of running) killGroup(child, "SIGKILL");
}
process.on("exit", killAllNow);
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
  process.on(signal, () => {
    killAllNow();
    process.exit(130);
  });
}

/**
 * @param {import("node:child_process").ChildProcess} child
 * @param {NodeJS.Signals} signal
 */
function killGroup(child, signal) {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/**
 * @typedef {object} DevServer
 * @property {string} label
 * @property {string} baseUrl   e.g. http://127.0.0.1:41234
 * @property {string} logPath
 * @property {() => Promise<void>} stop  SIGTERM to the group, SIGKILL after 5 s
 */

/**
 * Starts `wrangler dev` and resolves once it answers HTTP.
 * @param {object} options
 * @param {string} options.label          names the log file
 * @param {string} options.config        wrangler config path
 * @param {string} options.persistTo      state directory (kept across restarts)
 * @param {Record<string, string>} [options.vars]
 * @param {string} options.logDir
 * @param {number} [options.readyTimeoutMs]
 * @returns {Promise<DevServer>}
 */
export async function startWranglerDev({
  label,
  config,
  persistTo,
  vars = {},
  logDir,
  readyTimeoutMs = 90_000,
}) {
  const port = await freePort();
  const inspectorPort = await freePort();
  const args = [
    WRANGLER,
    "dev",
    "--config",
    config,
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(inspectorPort),
    "--persist-to",
    persistTo,
    "--show-interactive-dev-session=false",
  ];
  for (const [key, value] of Object.entries(vars)) args.push("--var", `${key}:${value}`);
  const logPath = `${logDir}/${label}.log`;
  const log = createWriteStream(logPath, { flags: "a" });
  log.write(`\n--- ${new Date().toISOString()} node ${args.join(" ")}\n`);
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: wranglerEnv(),
  });
  running.add(child);
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const baseUrl = `http://127.0.0.1:${port}`;

  const stop = async () => {
    killGroup(child, "SIGTERM");
    const gone = await Promise.race([exited.then(() => true), sleep(5_000).then(() => false)]);
    if (!gone) killGroup(child, "SIGKILL");
    await Promise.race([exited, sleep(2_000)]);
    // workerd children may outlive wrangler for a moment; make sure the group is empty.
    killGroup(child, "SIGKILL");
    running.delete(child);
    log.end();
  };

  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      running.delete(child);
      throw new Error(`wrangler dev (${label}) exited early:\n${await tail(logPath)}`);
    }
    try {
      const response = await fetch(baseUrl, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      return { label, baseUrl, logPath, stop };
    } catch {
      await sleep(250);
    }
  }
  await stop();
  throw new Error(
    `wrangler dev (${label}) did not answer within ${readyTimeoutMs} ms:\n${await tail(logPath)}`,
  );
}

/** @param {string} path */
async function tail(path) {
  const text = await readFile(path, "utf8").catch(() => "");
  return text.split("\n").slice(-30).join("\n");
}
