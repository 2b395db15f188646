// Command-line options: sensible defaults, and clear refusals rather than silent fallbacks.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { readOptions } from "../lib/options.mjs";

test("with no options every scenario runs and the run counts as a full one", () => {
  const options = readOptions([]);
  assert.deepEqual(options.scenarios, [
    "glass",
    "storage",
    "replay",
    "resume",
    "many",
    "startup",
    "inbox",
    "agent",
  ]);
  assert.equal(options.inboxSessions, 50);
  assert.equal(options.pacedDeltas, 2000);
  assert.equal(options.full, true);
  assert.deepEqual(options.paces, [2.5, 20]);
  assert.equal(options.peers, false);
  assert.deepEqual(options.devices, [1, 10, 100]);
  assert.deepEqual(options.replayMissed, [1000, 10000]);
});

test("a subset of scenarios is not a full run, so it cannot overwrite latest.md", () => {
  assert.equal(readOptions(["--scenarios", "glass"]).full, false);
  assert.equal(readOptions(["--no-eviction"]).full, false);
});

test("unknown scenarios and malformed numbers are refused with the option's name", () => {
  assert.throws(() => readOptions(["--scenarios", "glass,nope"]), /unknown scenario "nope"/);
  assert.throws(() => readOptions(["--paces", "2.5,0"]), /--paces wants positive numbers/);
  assert.throws(() => readOptions(["--peers=yes"]), /peers/);
  assert.throws(() => readOptions(["--devices", "10,x"]), /--devices/);
  assert.throws(() => readOptions(["--repeats", "0"]), /--repeats/);
  assert.throws(
    () => readOptions(["--storage-deltas", "30000", "--chunk", "4"]),
    /exceed one scripted reply/,
  );
});

test("--peers adds the agents SDK to a run and keeps the paces it is given, decimals included", () => {
  const options = readOptions(["--peers", "--paces", "1.5,40"]);
  assert.equal(options.peers, true);
  assert.deepEqual(options.paces, [1.5, 40]);
  assert.equal(options.full, true);
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
