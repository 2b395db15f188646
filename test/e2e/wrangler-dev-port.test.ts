// The servers the suites start are the ones they talk to: a port found free can be bound by another
// process before `wrangler dev` binds it (a runtime's own local service answers such requests with
// 403 "Forbidden"), and that process's answers must not pass for the started server's.
import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type DevServer, startWranglerDev } from "../../scripts/wrangler-dev.mjs";

const BARE = fileURLToPath(new URL("../../bench/baseline/wrangler.toml", import.meta.url));

let squatter: Server | undefined;
let server: DevServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
  await new Promise((resolve) => (squatter ? squatter.close(resolve) : resolve(undefined)));
  squatter = undefined;
});

/** A server on a loopback port of its own, answering every request 403, as a stranger would. */
async function stranger(): Promise<number> {
  squatter = createServer((_request, response) => response.writeHead(403).end("Forbidden"));
  await new Promise<void>((resolve) => squatter?.listen(0, "127.0.0.1", resolve));
  const address = squatter.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("starting wrangler dev", () => {
  it("fails, saying the address is in use, when another process holds the port it was given", {
    timeout: 60_000,
  }, async () => {
    const port = await stranger();
    const starting = startWranglerDev({ label: "port-held", config: BARE, port });
    // Were it taken for started, afterEach stops it.
    starting.then((started) => (server = started)).catch(() => undefined);
    await expect(starting).rejects.toThrow(/Address already in use/);
  });

  it("answers only once wrangler serves its port, with the started Worker's own answer", {
    timeout: 60_000,
  }, async () => {
    server = await startWranglerDev({ label: "port-own", config: BARE });
    const response = await fetch(server.baseUrl);
    expect(await response.text()).toBe("bare broadcast baseline");
  });
});
