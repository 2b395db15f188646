// The Workers tests' wrangler config: wrangler.toml as it is, written to a folder of its own with
// its paths made absolute. Wrangler reads the `.dev.vars` beside the config it is given, and
// `npm run dev` keeps the developer's GATEWAY_TOKEN, signing key and VAPID keys there: read beside
// wrangler.toml, they would reach every test runtime (every request a person's, pushes on), and
// `npm test` after `npm run dev` in one checkout would fail hundreds of tests.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { configWithoutBuild } from "../../scripts/wrangler-config.mjs";

/**
 * Writes `root`'s wrangler.toml, without its build step, to `node_modules/.cache/parley-tests/`
 * (the same file each time this config is read); answers its path.
 */
export async function testWranglerConfig(root: string): Promise<string> {
  const config = await configWithoutBuild(root);
  const dir = join(root, "node_modules", ".cache", "parley-tests");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "wrangler.json");
  writeFileSync(path, JSON.stringify(config));
  return path;
}
