// Parley deployed as two Workers, for `node bench/gc-pauses.mjs --split`: the session object alone
// in one (bench/split/session-entry.ts) and everything else in the other, which reaches the session
// object through its Durable Object binding naming the first. Measures what splitting the upload
// would leave in the session's isolate; Parley itself deploys as one Worker.
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildWorker } from "../../scripts/build-worker.mjs";
import { configWithoutBuild } from "../../scripts/wrangler-config.mjs";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The session Worker's name, and its isolate's in the runtime's inspector. */
export const SESSION_WORKER = "parley-session";

/**
 * Builds both Workers into `dir` and writes their configs, each with `vars` (wrangler gives its
 * `--var`s to the first Worker only).
 * @param {string} dir @param {Record<string, string>} vars
 * @returns {Promise<string[]>} the configs, the session Worker's first (it serves HTTP)
 */
export async function snapshotSplitParley(dir, vars) {
  await buildWorker({ root: REPO_ROOT, outdir: join(dir, "front") });
  await buildWorker({ root: REPO_ROOT, outdir: join(dir, "session"), entry: "bench/split/session-entry.ts" });
  const { session, front } = splitConfigs(await configWithoutBuild(REPO_ROOT), dir, vars);
  const paths = [join(dir, "session.json"), join(dir, "front.json")];
  await writeFile(paths[0], JSON.stringify(session));
  await writeFile(paths[1], JSON.stringify(front));
  return paths;
}

/**
 * The two Workers' configs from Parley's one (as `configWithoutBuild` reads it): the session Worker
 * keeps the session object's binding and migration and names the other Worker for every other
 * object; the other names the session Worker for the session object. No page: only /api is driven.
 * @param {Record<string, any>} config @param {string} dir @param {Record<string, string>} vars
 */
export function splitConfigs(config, dir, vars) {
  const { assets: _assets, migrations, durable_objects: objects, ...rest } = config;
  /** @param {{ class_name: string }} binding */
  const isSession = (binding) => binding.class_name === "SessionObject";
  /** @param {{ new_sqlite_classes?: string[] }} migration */
  const createsSession = (migration) => migration.new_sqlite_classes?.includes("SessionObject") ?? false;
  const front = {
    ...rest,
    main: join(dir, "front/index.js"),
    vars: { ...rest.vars, ...vars },
    durable_objects: {
      bindings: objects.bindings.map((b) => (isSession(b) ? { ...b, script_name: SESSION_WORKER } : b)),
    },
    migrations: migrations.filter((m) => !createsSession(m)),
  };
  const session = {
    ...rest,
    name: SESSION_WORKER,
    main: join(dir, "session/index.js"),
    vars: { ...rest.vars, ...vars },
    durable_objects: {
      bindings: objects.bindings.map((b) => (isSession(b) ? b : { ...b, script_name: config.name })),
    },
    migrations: migrations.filter(createsSession),
    services: [{ binding: "FRONT", service: config.name }],
  };
  return { session, front };
}

/**
 * The DevTools address of one Worker's isolate, from the runtime's own inspector: wrangler's port
 * serves one Worker only. The runtime picks its port itself, so each port workerd listens on is
 * asked for its list of isolates.
 * @param {string} name @returns {Promise<string>}
 */
export async function runtimeInspectorTarget(name) {
  const listening = execFileSync("ss", ["-ltnpH"], { encoding: "utf8" });
  const ports = [...listening.matchAll(/127\.0\.0\.1:(\d+)\s.*"workerd"/g)].map((match) => match[1]);
  for (const port of ports) {
    try {
      const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
      const target = targets.find((t) => String(t.title).endsWith(`core:user:${name}`));
      if (target) return target.webSocketDebuggerUrl;
    } catch {
      // Not the inspector: a Worker's own port.
    }
  }
  throw new Error(`no inspector of the Worker ${name} among workerd's ports ${ports.join(", ")}`);
}
