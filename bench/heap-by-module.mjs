// What a heap snapshot holds, by node type and by module: which modules the isolate ran, and what
// their source and compiled code cost against those it never ran. Not part of `npm run bench`.
//   node bench/gc-pauses.mjs --streams 2 --snapshot /tmp/parley.heapsnapshot
//   node bench/heap-by-module.mjs /tmp/parley.heapsnapshot [--modules 20]
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { byModule, byNodeType, snapshotGraph } from "./lib/heap-snapshot.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { modules: { type: "string", default: "20" } },
});
if (positionals.length !== 1)
  throw new Error("usage: node bench/heap-by-module.mjs FILE.heapsnapshot [--modules N]");
const graph = snapshotGraph(JSON.parse(await readFile(positionals[0], "utf8")));
const kib = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(0)} KiB`;

console.log(`${graph.count} nodes\n\n| node type | bytes | nodes |\n|---|---:|---:|`);
for (const row of byNodeType(graph)) console.log(`| ${row.type} | ${kib(row.bytes)} | ${row.nodes} |`);

const modules = byModule(graph);
console.log(
  "\n| modules | count | source text | bytecode | function records | closures |\n|---|---:|---:|---:|---:|---:|",
);
for (const ran of [true, false]) {
  const rows = modules.filter((row) => row.ran === ran);
  const sum = (/** @type {(row: import("./lib/heap-snapshot.mjs").ModuleRow) => number} */ pick) =>
    rows.reduce((total, row) => total + pick(row), 0);
  console.log(
    `| ${ran ? "run" : "never run"} | ${rows.length} | ${(sum((r) => r.sourceChars) / 1e6).toFixed(2)} MB | ` +
      `${kib(sum((r) => r.bytecode))} | ${kib(sum((r) => r.records))} | ${sum((r) => r.closures)} |`,
  );
}
console.log(
  "\n| module | ran | source | bytecode | function records | functions | closures |\n|---|---|---:|---:|---:|---:|---:|",
);
for (const row of modules.slice(0, Number(values.modules))) {
  console.log(
    `| ${row.module} | ${row.ran ? "yes" : "no"} | ${(row.sourceChars / 1000).toFixed(0)} kB | ${kib(row.bytecode)} | ` +
      `${kib(row.records)} | ${row.functions} | ${row.closures} |`,
  );
}
