// `npm run dev` as the tests run it: on the ports given, with its own `.dev.vars` and state in a
// directory of the test's, so the developer's are never read or written.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { wranglerEnv } from "../../scripts/wrangler-dev.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Starts `scripts/dev.mjs` in its own process group, its output piped. */
export function spawnDev(dir: string, port: number, inspectorPort: number): ChildProcess {
  return spawn(
    process.execPath,
    [
      "scripts/dev.mjs",
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      join(dir, "state"),
      "--show-interactive-dev-session=false",
      // The tree the suite's setup built (wrangler.toml without its [build] step, which
      // `.ci/run`'s deploy dry run runs): a second build here would only repeat that one.
      ...(process.env.PARLEY_WRANGLER_CONFIG ? ["--config", process.env.PARLEY_WRANGLER_CONFIG] : []),
    ],
    {
      cwd: ROOT,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...wranglerEnv(), PARLEY_DEV_VARS: join(dir, ".dev.vars") },
    },
  );
}
