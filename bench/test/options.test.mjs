// Command-line options: sensible defaults, and clear refusals rather than silent fallbacks.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { readOptions } from "../lib/options.mjs";

test("with no options every scenario runs and the run counts as a full one", () => {
  const options = readOptions([]);
  assert.deepEqual(options.scenarios, ["fanout", "storage", "replay", "resume", "many"]);
  assert.equal(options.full, true);
  assert.deepEqual(options.devices, [1, 10, 100]);
  assert.deepEqual(options.replayMissed, [1000, 10000]);
});

test("a subset of scenarios is not a full run, so it cannot overwrite latest.md", () => {
  assert.equal(readOptions(["--scenarios", "fanout"]).full, false);
  assert.equal(readOptions(["--no-eviction"]).full, false);
});

test("unknown scenarios and malformed numbers are refused with the option's name", () => {
  assert.throws(() => readOptions(["--scenarios", "fanout,nope"]), /unknown scenario "nope"/);
  assert.throws(() => readOptions(["--devices", "10,x"]), /--devices/);
  assert.throws(() => readOptions(["--repeats", "0"]), /--repeats/);
  assert.throws(() => readOptions(["--burst-deltas", "30000", "--chunk", "4"]), /exceed one scripted reply/);
});

test("npm run bench -- --help prints the options and starts nothing", () => {
  const run = fileURLToPath(new URL("../run.mjs", import.meta.url));
  const result = spawnSync(process.execPath, [run, "--help"], { encoding: "utf8", timeout: 30_000 });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /--scenarios LIST/);
  assert.equal(result.stderr, "");
});

test("a bad option exits 1 with the usage and no stack trace", () => {
  const run = fileURLToPath(new URL("../run.mjs", import.meta.url));
  const result = spawnSync(process.execPath, [run, "--devices", "ten"], {
    encoding: "utf8",
    timeout: 30_000,
  });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /--devices wants positive whole numbers/);
  assert.doesNotMatch(result.stderr, /at readOptions/);
});
