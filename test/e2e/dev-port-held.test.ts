// `npm run dev` on a port another process holds: it says so and exits, and never prints a sign-in
// address, which would have pointed the person's browser at that other process.
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { freePort } from "../../scripts/wrangler-dev.mjs";
import { spawnDev } from "./dev-process";

it("npm run dev on a port another process holds exits with wrangler's error and no sign-in address", {
  timeout: 120_000,
}, async () => {
  const stranger = createServer((_request, response) => response.writeHead(403).end("Forbidden"));
  await new Promise<void>((resolve) => stranger.listen(0, "127.0.0.1", resolve));
  const address = stranger.address();
  if (!address || typeof address === "string") throw new Error("no port");
  const dir = await mkdtemp(join(tmpdir(), "parley-dev-held-"));
  try {
    const dev = spawnDev(dir, address.port, await freePort());
    let output = "";
    dev.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    dev.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => dev.once("exit", resolve));
    expect(code).not.toBe(0);
    expect(output).toMatch(/Address already in use/);
    expect(output).not.toMatch(/Parley is ready|sign-in\?code=/);
  } finally {
    await new Promise((resolve) => stranger.close(resolve));
    await rm(dir, { recursive: true, force: true });
  }
});
