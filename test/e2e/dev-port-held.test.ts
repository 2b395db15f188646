// `npm run dev` on a port another process holds: it says so and exits, and never prints a sign-in
// address, which would have pointed the person's browser at that other process.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { wranglerEnv } from "../../scripts/wrangler-dev.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

it("npm run dev on a port another process holds exits with wrangler's error and no sign-in address", {
  timeout: 120_000,
}, async () => {
  const stranger = createServer((_request, response) => response.writeHead(403).end("Forbidden"));
  await new Promise<void>((resolve) => stranger.listen(0, "127.0.0.1", resolve));
  const address = stranger.address();
  if (!address || typeof address === "string") throw new Error("no port");
  const dir = await mkdtemp(join(tmpdir(), "parley-dev-held-"));
  try {
    const dev = spawn(
      process.execPath,
      [
        "scripts/dev.mjs",
        "--port",
        String(address.port),
        "--persist-to",
        join(dir, "state"),
        "--show-interactive-dev-session=false",
        ...(process.env.PARLEY_WRANGLER_CONFIG ? ["--config", process.env.PARLEY_WRANGLER_CONFIG] : []),
      ],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...wranglerEnv(), PARLEY_DEV_VARS: join(dir, ".dev.vars") },
      },
    );
    let output = "";
    dev.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    dev.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => dev.once("exit", resolve));
    expect(code).not.toBe(0);
    expect(output).toMatch(/Address already in use/);
    expect(output).not.toMatch(/Parley is ready|sign-in\?code=/);
  } finally {
    await new Promise((resolve) => stranger.close(resolve));
    await rm(dir, { recursive: true, force: true });
  }
});
