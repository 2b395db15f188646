// Starts `wrangler dev` for tests and benchmarks that need the real Worker over real sockets:
// a free port, offline settings, chosen vars, a private persistence dir, and a clean stop.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";

export interface WranglerDevOptions {
  /** Port to listen on; a free one is picked when absent. */
  port?: number;
  /** `--var KEY:VALUE` pairs (e.g. `{ ALLOW_SCRIPTED_SESSIONS: "true" }`). */
  vars?: Record<string, string>;
  /** Storage directory; a temporary one (removed on stop) when absent. */
  persistTo?: string;
  /** Project root holding wrangler.toml; defaults to the current directory. */
  cwd?: string;
  /** How long to wait for the first answer, in milliseconds. */
  startTimeoutMs?: number;
  /** Print wrangler's output as it comes (debugging). */
  verbose?: boolean;
}

export interface WranglerDev {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Stops wrangler and its workerd processes, and removes a temporary persistence dir. */
  stop(): Promise<void>;
}

/** Asks the OS for a free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startWranglerDev(options: WranglerDevOptions = {}): Promise<WranglerDev> {
  const cwd = options.cwd ?? process.cwd();
  const port = options.port ?? (await freePort());
  const inspectorPort = await freePort();
  const tempDir = options.persistTo ? null : await mkdtemp(join(tmpdir(), "parley-wrangler-"));
  const persistTo = options.persistTo ?? tempDir!;
  const args = [
    join(cwd, "node_modules", "wrangler", "bin", "wrangler.js"),
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(inspectorPort),
    "--persist-to",
    persistTo,
    "--show-interactive-dev-session=false",
    "--log-level",
    options.verbose ? "log" : "warn",
  ];
  for (const [key, value] of Object.entries(options.vars ?? {})) args.push("--var", `${key}:${value}`);

  const child = spawn(process.execPath, args, {
    cwd,
    // Its own process group, so stop() can end workerd too.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      WRANGLER_SEND_METRICS: "false",
      CI: "true",
    },
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    if (options.verbose) process.stderr.write(chunk);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);

  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopProcessGroup(child);
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  };
  try {
    await waitUntilAnswering(url, child, options.startTimeoutMs ?? 60_000, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, port, stop };
}

async function waitUntilAnswering(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`wrangler dev exited with code ${child.exitCode}:\n${output()}`);
    }
    try {
      const response = await fetch(`${url}/`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`wrangler dev did not answer on ${url} within ${timeoutMs} ms:\n${output()}`);
}

async function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (name: "SIGTERM" | "SIGKILL") => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // The group is already gone.
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}
