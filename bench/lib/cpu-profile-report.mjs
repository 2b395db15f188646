// Prints a V8 CPU profile of the Worker: the functions with the most self time, who spends a named
// function's self time (its callers, a few frames up), and the heaviest inclusive paths, each frame
// named by its source file and line through the split Worker's source maps.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { sourcePositions } from "./source-positions.mjs";

/**
 * @param {{ nodes: any[], samples: number[], startTime: number, endTime: number }} profile
 * @param {{ mapsDir: string, heading: string, top: number, callers: string[] }} options
 */
export async function printProfile(profile, { mapsDir, heading, top, callers }) {
  // Self and total time per function, by sample counts.
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const counts = new Map();
  for (const s of profile.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
  const total = profile.samples.length;
  // The Worker is minified: each module's source map names a function's own file and line instead.
  const maps = new Map();
  for (const file of await readdir(mapsDir).catch(() => []))
    if (file.endsWith(".js.map"))
      maps.set(file.slice(0, -".map".length), await sourcePositions(join(mapsDir, file)).catch(() => null));
  const name = (node) => {
    const f = node.callFrame;
    const mapped = maps.get(f.url.split("/").slice(-1)[0])?.(f.lineNumber, f.columnNumber);
    return `${f.functionName || "(anon)"} ${mapped || `${f.url.split("/").slice(-1)[0]}:${f.lineNumber + 1}`}`;
  };
  const self = new Map();
  const inclusive = new Map();
  for (const [id, n] of counts) {
    const node = byId.get(id);
    self.set(name(node), (self.get(name(node)) ?? 0) + n);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const key = name(byId.get(at));
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + n);
    }
  }
  const idle = [...self].filter(([k]) => k.startsWith("(idle)")).reduce((a, [, v]) => a + v, 0);
  const busy = total - idle;
  const pct = (n) => `${((100 * n) / busy).toFixed(1)}%`;
  const ms = (n) => `${((n * (profile.endTime - profile.startTime)) / total / 1000).toFixed(0)}ms`;
  console.log(`samples ${total}, busy ${busy} (${ms(busy)}) ${heading}`);
  console.log("\nSELF");
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
    if (!k.startsWith("(idle)")) console.log(pct(v).padStart(7), ms(v).padStart(7), k);
  // Who spends the self time of a named function (say `exec`, SQLite): its callers, a few frames up.
  for (const wanted of callers) {
    const paths = new Map();
    for (const [id, n] of counts) {
      if (!name(byId.get(id)).startsWith(`${wanted} `)) continue;
      const up = [];
      for (let at = parent.get(id); at !== undefined && up.length < 4; at = parent.get(at)) {
        const key = name(byId.get(at));
        if (!key.startsWith("(anon)")) up.push(key);
      }
      const path = up.join(" ← ");
      paths.set(path, (paths.get(path) ?? 0) + n);
    }
    console.log(`\nCALLERS of ${wanted}`);
    for (const [k, v] of [...paths].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(pct(v).padStart(7), ms(v).padStart(7), k);
  }
  console.log("\nINCLUSIVE");
  for (const [k, v] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top * 6))
    console.log(pct(v).padStart(7), ms(v).padStart(7), k);
}
