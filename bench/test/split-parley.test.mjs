// Parley as two Workers for the heap measurement (bench/gc-pauses.mjs --split), from the real
// wrangler.toml: each object lives in exactly one Worker, and the other reaches it by name.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { configWithoutBuild } from "../../scripts/wrangler-config.mjs";
import { SESSION_WORKER, splitConfigs } from "../lib/split-parley.mjs";

const config = await configWithoutBuild(fileURLToPath(new URL("../../", import.meta.url)));
const { session, front } = splitConfigs(config, "/tmp/split", { SESSION_SECRET: "s" });
const where = (/** @type {any} */ worker) =>
  Object.fromEntries(worker.durable_objects.bindings.map((b) => [b.name, b.script_name ?? worker.name]));

test("every object binding of wrangler.toml lives in one Worker, and both Workers agree which", () => {
  const names = config.durable_objects.bindings.map((b) => b.name);
  assert.ok(names.length >= 4);
  assert.deepEqual(where(session), where(front));
  assert.equal(where(front).SESSIONS, SESSION_WORKER);
  for (const name of names.filter((n) => n !== "SESSIONS")) assert.equal(where(session)[name], config.name);
});

test("each object's storage is created by the Worker that holds it", () => {
  const created = (/** @type {any} */ worker) => worker.migrations.flatMap((m) => m.new_sqlite_classes ?? []);
  assert.deepEqual(created(session), ["SessionObject"]);
  assert.ok(!created(front).includes("SessionObject"));
  assert.equal(created(front).length + 1, config.migrations.length);
});

test("both Workers get the variables, since wrangler gives its --var to the first only", () => {
  assert.equal(session.vars.SESSION_SECRET, "s");
  assert.equal(front.vars.SESSION_SECRET, "s");
  assert.equal(front.vars.INTERACTION_TIMEOUT_MS, config.vars.INTERACTION_TIMEOUT_MS);
  assert.deepEqual(session.services, [{ binding: "FRONT", service: config.name }]);
});
