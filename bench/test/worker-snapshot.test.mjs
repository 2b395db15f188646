// The benchmark's copy of wrangler.toml: same Worker and bindings, no web build, bundle as entry.
import assert from "node:assert/strict";
import { test } from "node:test";
import { benchConfig, withCompatFlags } from "../lib/worker-snapshot.mjs";

const TOML = `name = "parley"
main = "src/index.ts"
compatibility_date = "2026-10-01"

[build]
command = "node scripts/build-web.mjs"
watch_dir = "web/src"

[assets]
directory = "web/public"
run_worker_first = ["/api/*"]

[[durable_objects.bindings]]
name = "SESSIONS"
class_name = "SessionObject"

[vars]
INTERACTION_TIMEOUT_MS = "600000"

[alias]
"crypto" = "./src/channels/stand-ins/lazy-node-builtins.ts"
`;

test("drops the web build and assets but keeps bindings and variables", () => {
  const out = benchConfig(TOML, "dist/index.js", true);
  assert.doesNotMatch(out, /\[build\]|\[assets\]|build-web|web\/public/);
  assert.match(out, /\[\[durable_objects\.bindings\]\]\nname = "SESSIONS"/);
  assert.match(out, /INTERACTION_TIMEOUT_MS = "600000"/);
});

test("points main at the snapshot and turns bundling off only for the prebuilt bundle", () => {
  assert.match(benchConfig(TOML, "dist/index.js", true), /^main = "dist\/index\.js"\nno_bundle = true$/m);
  assert.doesNotMatch(benchConfig(TOML, "/repo/src/index.ts", false), /no_bundle/);
});

test("refuses a config without a top-level main", () => {
  assert.throws(() => benchConfig('name = "x"\n', "dist/index.js", true), /no top-level "main/);
});

test("makes module aliases absolute, from the directory of the config it copies", () => {
  const out = benchConfig(TOML, "dist/index.js", false, "/tmp/run/source");
  assert.match(out, /^"crypto" = "\/tmp\/run\/source\/src\/channels\/stand-ins\/lazy-node-builtins\.ts"$/m);
});

test("serves a split Worker's own build unbundled, saying so once", () => {
  const split = TOML.replace('main = "src/index.ts"', 'main = "build/worker/index.js"\nno_bundle = true');
  const out = benchConfig(split, "/tmp/run/parley/split/index.js", true);
  assert.match(out, /^main = "\/tmp\/run\/parley\/split\/index\.js"\nno_bundle = true$/m);
  assert.equal(out.match(/no_bundle/g)?.length, 1);
  assert.doesNotMatch(benchConfig(split, "/repo/src/index.ts", false), /no_bundle/);
});

test("adds compatibility flags before the ones a config names, or after its date when it names none", () => {
  const named = withCompatFlags(
    'compatibility_date = "2026-10-01"\ncompatibility_flags = ["nodejs_compat"]\n',
    ["new_module_registry"],
  );
  assert.match(named, /^compatibility_flags = \["new_module_registry", "nodejs_compat"\]$/m);
  const none = withCompatFlags(TOML, ["new_module_registry", "nodejs_compat"]);
  assert.match(
    none,
    /^compatibility_date = "2026-10-01"\ncompatibility_flags = \["new_module_registry", "nodejs_compat"\]$/m,
  );
  const empty = withCompatFlags('compatibility_date = "2026-10-01"\ncompatibility_flags = []\n', ["a"]);
  assert.match(empty, /^compatibility_flags = \["a"\]$/m);
  assert.equal(withCompatFlags(TOML, []), TOML);
  assert.throws(() => withCompatFlags('name = "x"\n', ["a"]), /no compatibility_date/);
});
