// The Workers tests' wrangler config: wrangler.toml as it is, written to a folder of its own with
// its paths made absolute. Wrangler reads the `.dev.vars` beside the config it is given, and
// `npm run dev` keeps the developer's GATEWAY_TOKEN, signing key and VAPID keys there: read beside
// wrangler.toml, they would reach every test runtime (every request a person's, pushes on), and
// `npm test` after `npm run dev` in one checkout would fail hundreds of tests.
import { mkdirSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { experimental_readRawConfig } from "wrangler";

/**
 * Writes `root`'s wrangler.toml, without its build step, to `node_modules/.cache/parley-tests/`
 * (the same file each time this config is read); returns its path.
 */
export function testWranglerConfig(root: string): string {
  const { rawConfig } = experimental_readRawConfig({ config: join(root, "wrangler.toml") });
  const { build: _build, ...config } = rawConfig;
  const fromRoot = (path: string): string => (isAbsolute(path) ? path : join(root, path));
  const alias = config.alias
    ? Object.fromEntries(
        Object.entries(config.alias as Record<string, string>).map(([name, to]) => [
          name,
          to.startsWith(".") ? fromRoot(to) : to,
        ]),
      )
    : undefined;
  const written = {
    ...config,
    ...(config.main ? { main: fromRoot(config.main) } : {}),
    ...(config.assets?.directory
      ? { assets: { ...config.assets, directory: fromRoot(config.assets.directory) } }
      : {}),
    ...(alias ? { alias } : {}),
  };
  const dir = join(root, "node_modules", ".cache", "parley-tests");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "wrangler.json");
  writeFileSync(path, JSON.stringify(written));
  return path;
}
