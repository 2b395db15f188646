// The Workers tests read wrangler.toml through a copy in a folder of their own, so the `.dev.vars`
// that `npm run dev` writes beside it (the developer's GATEWAY_TOKEN and keys) never reaches them.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { testWranglerConfig } from "../helpers/test-wrangler-config";

/** A checkout with a wrangler.toml, and a `.dev.vars` beside it as `npm run dev` leaves one. */
function checkout(): string {
  const root = mkdtempSync(join(tmpdir(), "parley-test-config-"));
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "index.ts"), "export default {};\n");
  writeFileSync(
    join(root, "wrangler.toml"),
    [
      'name = "probe"',
      'main = "src/index.ts"',
      'compatibility_date = "2026-10-01"',
      "[build]",
      'command = "false"',
      "[vars]",
      'FROM_CONFIG = "yes"',
      "[assets]",
      'directory = "public"',
      'binding = "ASSETS"',
      "[alias]",
      '"axios" = "./src/stand-in.ts"',
      '"node:os" = "node:os"',
    ].join("\n"),
  );
  writeFileSync(join(root, ".dev.vars"), "GATEWAY_TOKEN=the-developers-own\nVAPID_PUBLIC_KEY=theirs\n");
  return root;
}

const root = checkout();
afterAll(() => rmSync(root, { recursive: true, force: true }));
const bindingsOf = (config: string) =>
  Object.keys(unstable_getMiniflareWorkerOptions(config).workerOptions.bindings ?? {}).sort();

describe("the Workers tests' wrangler config", () => {
  it("keeps wrangler.toml's bindings and leaves out the .dev.vars beside it, which wrangler.toml itself would bring", async () => {
    expect(bindingsOf(join(root, "wrangler.toml"))).toEqual([
      "FROM_CONFIG",
      "GATEWAY_TOKEN",
      "VAPID_PUBLIC_KEY",
    ]);
    expect(bindingsOf(await testWranglerConfig(root))).toEqual(["FROM_CONFIG"]);
  });

  it("names the entry, the assets and the local aliases by absolute path, keeps other aliases, and has no build step", async () => {
    const written = JSON.parse(readFileSync(await testWranglerConfig(root), "utf8"));
    expect(written.main).toBe(join(root, "src", "index.ts"));
    expect(written.assets.directory).toBe(join(root, "public"));
    expect(written.alias).toEqual({ axios: join(root, "src", "stand-in.ts"), "node:os": "node:os" });
    expect(written.build).toBeUndefined();
  });
});
