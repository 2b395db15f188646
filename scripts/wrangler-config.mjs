// wrangler.toml read as wrangler reads it, for the copies the tests and the browser suite's servers
// run from: no build step (their tree is built already, or they load the sources) and every path of
// it absolute, so the copy reads the same tree wherever it is written.
import { isAbsolute, join } from "node:path";

/**
 * `root`'s wrangler.toml as wrangler reads it, without its [build] step, and with its entry, its
 * page's assets and its local aliases named by absolute path, so a copy written anywhere else reads
 * the same tree.
 * @param {string} root @returns {Promise<Record<string, any>>}
 */
export async function configWithoutBuild(root) {
  // Wrangler's own reader, loaded only when called: the servers started later need none of it.
  const { experimental_readRawConfig } = await import("wrangler");
  const { rawConfig } = experimental_readRawConfig({ config: join(root, "wrangler.toml") });
  const { build: _build, ...config } = rawConfig;
  /** @param {string} path */
  const fromRoot = (path) => (isAbsolute(path) ? path : join(root, path));
  return {
    ...config,
    ...(config.main ? { main: fromRoot(config.main) } : {}),
    ...(config.assets?.directory
      ? { assets: { ...config.assets, directory: fromRoot(config.assets.directory) } }
      : {}),
    ...(config.alias
      ? {
          alias: Object.fromEntries(
            Object.entries(config.alias).map(([name, to]) => [name, to.startsWith(".") ? fromRoot(to) : to]),
          ),
        }
      : {}),
  };
}
