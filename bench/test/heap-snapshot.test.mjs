// Reading a heap snapshot by module: a real V8 snapshot, written by a Node process holding one
// script it ran and one it only compiled.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { promisify } from "node:util";
import { byModule, byNodeType, snapshotGraph } from "../lib/heap-snapshot.mjs";

const IDLE_SOURCE = "function neverCalled(a) { return a + 1 }\\nfunction alsoNever() { return [a => a] }";
const RUN_SOURCE = "globalThis.madeHere = function madeHere(x) { return x * 2 };";

/** Writes a snapshot of a fresh process that compiled one script and ran another. */
async function twoScriptSnapshot(dir) {
  const file = join(dir, "two-scripts.heapsnapshot");
  const program = `
    const vm = require("node:vm");
    globalThis.kept = new vm.Script("${IDLE_SOURCE}", { filename: "compiled-only.js" });
    new vm.Script(${JSON.stringify(RUN_SOURCE)}, { filename: "ran.js" }).runInThisContext();
    require("node:v8").writeHeapSnapshot(${JSON.stringify(file)});`;
  await promisify(execFile)(process.execPath, ["-e", program]);
  return snapshotGraph(JSON.parse(await readFile(file, "utf8")));
}

// One snapshot for both tests: writing it is most of their time.
const dir = await mkdtemp(join(tmpdir(), "heap-snapshot-"));
after(() => rm(dir, { recursive: true, force: true }));
const graph = await twoScriptSnapshot(dir);

test("a script only compiled counts its source and function records, and as never run", () => {
  const rows = byModule(graph);
  const idle = rows.find((row) => row.module === "compiled-only.js");
  const ran = rows.find((row) => row.module === "ran.js");
  assert.ok(idle && ran, `both scripts are rows: ${rows.map((row) => row.module).join(", ")}`);
  assert.equal(idle.ran, false);
  assert.equal(idle.closures, 0);
  // Its top level and its two declared functions; the arrow inside one was never compiled.
  assert.equal(idle.functions, 3);
  assert.equal(idle.sourceChars, IDLE_SOURCE.replace("\\n", "\n").length);
  assert.ok(idle.bytecode > 0, "the top level is compiled when the script is");
  assert.ok(idle.records > 0);

  assert.equal(ran.ran, true);
  assert.equal(ran.closures, 1, "madeHere, kept on globalThis");
  assert.equal(ran.sourceChars, RUN_SOURCE.length);
});

test("the node types add up to every node of the snapshot", () => {
  const types = byNodeType(graph);
  assert.equal(
    types.reduce((sum, row) => sum + row.nodes, 0),
    graph.count,
  );
  let bytes = 0;
  for (let i = 0; i < graph.count; i++) bytes += graph.size(i);
  assert.equal(
    types.reduce((sum, row) => sum + row.bytes, 0),
    bytes,
  );
  assert.ok(types.some((row) => row.type === "closure" && row.nodes > 0));
});
