// Starts and stops `wrangler dev` on loopback for the browser tests and the benchmark: free ports,
// offline settings, chosen vars (a signing key and a GATEWAY_TOKEN of its own among them), its own process group (so workerd stops too), output kept for
// error messages, and a kill of every group it started however the calling process ends.
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { stateGatewayToken, stateSessionSecret } from "./dev-secret.mjs";
import { configWithoutBuild } from "./wrangler-config.mjs";

const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url));
/** Wrangler's CLI script, run with this Node (22, which wrangler requires). */
export const WRANGLER = join(REPO_ROOT, "node_modules", "wrangler", "bin", "wrangler.js");

/**
 * Offline, quiet, and no reloads when config files change under a running test or benchmark; and
 * without wrangler dev's local trace collector, which records every call and SQL statement for its
 * local dashboard (a quarter of workerd's CPU in a profile of many sessions answered at once), a
 * cost only `wrangler dev` has.
 */
export function wranglerEnv() {
  return {
    ...process.env,
    X_LOCAL_OBSERVABILITY: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_CI_DISABLE_CONFIG_WATCHING: "true",
    WRANGLER_HIDE_BANNER: "true",
    NO_COLOR: "1",
  };
}

/** Asks the kernel for an unused loopback port. @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

/** @type {Set<import("node:child_process").ChildProcess>} */
const running = new Set();
process.on("exit", () => {
  for (const child of running) killGroup(child, "SIGKILL");
});

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
 * @typedef {object} WranglerDevOptions
 * @property {string} [label]            names the server in messages and its log file
 * @property {string | string[]} [config] wrangler config path (default: PARLEY_WRANGLER_CONFIG, else the
 *                                       project's wrangler.toml); several run several Workers, the
 *                                       first serving HTTP, and `vars` reach only that first
 * @property {string} [persistTo]        state directory, kept; a temporary one (removed on stop) when absent
 * @property {number} [port]             serve on this port (fails if another process holds it; without
 *                                       one, a port taken meanwhile is replaced by another)
 * @property {Record<string, string>} [vars]   `--var KEY:VALUE` pairs
 * @property {string} [logDir]           keep wrangler's output in `<logDir>/<label>.log`
 * @property {boolean} [verbose]         also print wrangler's output as it comes
 * @property {number} [readyTimeoutMs]   how long to wait for the first answer
 *
 * @typedef {object} DevServer
 * @property {string} label
 * @property {string} baseUrl            e.g. http://127.0.0.1:41234
 * @property {string} gatewayToken       the person's credential (GATEWAY_TOKEN) the server was given
 * @property {() => Promise<void>} stop  SIGTERM to the group, SIGKILL after 5 s
 * @property {number} inspectorPort    workerd's DevTools inspector (heap figures, profiles)
 * @property {number} processGroup     wrangler's process group, workerd in it (its CPU, read from /proc)
 */

/** What wrangler prints when its port (or its inspector's) is another process's. */
export const ADDRESS_IN_USE = /Address already in use/;

/** wrangler dev could not bind a port that was free when it was chosen. */
class PortTakenError extends Error {}

/**
 * Starts `wrangler dev` and resolves once it answers HTTP.
 * @param {WranglerDevOptions} [options]
 * @returns {Promise<DevServer>}
 */
export async function startWranglerDev(options = {}) {
  // A port `freePort` found free can be bound by another process before wrangler binds it (the
  // suites start many servers at once, each runtime with ports of its own): a server whose port
  // the caller did not fix starts again on others.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (error) {
      if (!(error instanceof PortTakenError) || options.port !== undefined || attempt === 3) throw error;
    }
  }
}

/**
 * One start of `wrangler dev` (see `startWranglerDev`).
 * @param {WranglerDevOptions} options
 * @returns {Promise<DevServer>}
 */
async function startOnce(options) {
  const label = options.label ?? "parley";
  const port = options.port ?? (await freePort());
  const inspectorPort = await freePort();
  const tempDir = options.persistTo ? null : await mkdtemp(join(tmpdir(), "parley-wrangler-"));
  const args = [WRANGLER, "dev", "--ip", "127.0.0.1", "--port", String(port)];
  args.push("--inspector-port", String(inspectorPort), "--persist-to", options.persistTo ?? String(tempDir));
  args.push("--show-interactive-dev-session=false");
  const config = options.config ?? process.env.PARLEY_WRANGLER_CONFIG;
  // Several configs run several Workers; the first serves HTTP.
  if (config) for (const path of [config].flat()) args.push("--config", path);
  // A signing key and a person's credential of the server's own (kept with its state, so a restart
  // accepts its old tokens and its person); neither is a constant anywhere. Without the token no
  // request would be a person, loopback or not.
  const state = options.persistTo ?? String(tempDir);
  const vars = {
    SESSION_SECRET: stateSessionSecret(state),
    GATEWAY_TOKEN: stateGatewayToken(state),
    ...options.vars,
  };
  const gatewayToken = vars.GATEWAY_TOKEN;
  for (const [key, value] of Object.entries(vars)) args.push("--var", `${key}:${value}`);

  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: wranglerEnv(),
  });
  running.add(child);
  const log = options.logDir ? createWriteStream(join(options.logDir, `${label}.log`), { flags: "a" }) : null;
  log?.write(`\n--- ${new Date().toISOString()} node ${args.join(" ")}\n`);
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = "";
  // Set once wrangler says it serves `baseUrl`: until then an answer there may be another
  // process's, one that took the port first (a runtime's own local service answers 403).
  let serving = false;
  let addressInUse = false;
  /** @param {Buffer} chunk */
  const collect = (chunk) => {
    output = (output + chunk.toString()).slice(-20_000);
    serving ||= output.includes(`Ready on ${baseUrl}`);
    // Noted as it comes: what wrangler prints after it (a bundler's stack dump as it is torn down)
    // can be longer than the output kept.
    addressInUse ||= ADDRESS_IN_USE.test(output);
    log?.write(chunk);
    if (options.verbose) process.stderr.write(chunk);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise((resolve) => child.once("exit", resolve));

  const stop = async () => {
    killGroup(child, "SIGTERM");
    const gone = await Promise.race([exited.then(() => true), sleep(5_000).then(() => false)]);
    if (!gone) killGroup(child, "SIGKILL");
    await Promise.race([exited, sleep(2_000)]);
    // workerd children may outlive wrangler for a moment; make sure the group is empty.
    killGroup(child, "SIGKILL");
    running.delete(child);
    log?.end();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  };

  const readyTimeoutMs = options.readyTimeoutMs ?? 90_000;
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    // A wrangler that could not bind will not serve: it is stopped at once, without waiting for
    // its exit, which tearing down its bundler can delay.
    if (addressInUse) {
      await stop();
      throw new PortTakenError(
        `wrangler dev (${label}) could not serve: port ${port} or its inspector's is another process's (Address already in use)`,
      );
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`wrangler dev (${label}) exited early:\n${lastLines(output)}`);
    }
    if (!serving) {
      await sleep(100);
      continue;
    }
    try {
      const response = await fetch(baseUrl, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      // The page is served as assets, so the Worker itself loads on the first API request: made
      // here, so no caller's first request (a test's own time limit) pays for it, seconds on a busy
      // machine.
      await (await fetch(`${baseUrl}/api/notify`, { signal: AbortSignal.timeout(60_000) })).arrayBuffer();
      return { label, baseUrl, gatewayToken, stop, inspectorPort, processGroup: child.pid ?? 0 };
    } catch {
      await sleep(250);
    }
  }
  await stop();
  throw new Error(
    `wrangler dev (${label}) did not answer within ${readyTimeoutMs} ms:\n${lastLines(output)}`,
  );
}

/**
 * wrangler.toml without its [build] step, for servers of a tree already built (the browser suite
 * builds once in its global setup, then starts several servers): written to a directory of its own,
 * with the entry and the page's assets named by absolute path. Answers its path and a remover.
 * @returns {Promise<{ path: string, remove: () => Promise<void> }>}
 */
export async function writePrebuiltConfig() {
  const config = await configWithoutBuild(REPO_ROOT);
  const dir = await mkdtemp(join(tmpdir(), "parley-prebuilt-"));
  // The servers run a copy of the built Worker: a build made meanwhile (the `npm run dev` test's)
  // empties build/worker first, which a server starting or reloading at that moment would not find.
  await cp(dirname(String(config.main)), join(dir, "worker"), { recursive: true });
  const main = join(dir, "worker", basename(String(config.main)));
  const path = join(dir, "wrangler.json");
  await writeFile(path, JSON.stringify({ ...config, main }));
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** @param {string} text */
function lastLines(text) {
  return text.split("\n").slice(-30).join("\n");
}
