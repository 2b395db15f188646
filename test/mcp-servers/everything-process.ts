// Runs `@modelcontextprotocol/server-everything` with its Streamable HTTP transport on a port.
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import process from "node:process";

const require = createRequire(import.meta.url);
const ENTRY = path.join(
  path.dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist/index.js",
);

// However this process ends, the servers it started end with it.
const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export interface EverythingProcess {
  port: number;
  stop(): Promise<void>;
}

export async function startEverything(port: number): Promise<EverythingProcess> {
  const child = spawn(process.execPath, [ENTRY, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  await new Promise<void>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${output}`)), 20_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("listening on port")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited with ${code}: ${output}`));
    });
  });
  child.stderr?.resume();
  return { port, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}
