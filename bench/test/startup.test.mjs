// The start-up figures: workerd's CPU for the request that imports an upload, `wrangler check
// startup`'s own report, and the bundle's size.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import { importCpuMs, readUpload } from "../lib/startup-cpu.mjs";
import { bundleSize, readActiveMs } from "../scenarios/startup.mjs";

/**
 * An upload as `wrangler deploy --outfile` writes one: form-data with a metadata part and a part per module.
 * @param {Record<string, { type: string, text: string }>} parts
 * @param {object} metadata
 */
async function upload(parts, metadata) {
  const form = new FormData();
  form.set("metadata", new Blob([JSON.stringify(metadata)], { type: "application/json" }));
  for (const [name, part] of Object.entries(parts))
    form.set(name, new Blob([part.text], { type: part.type }), name);
  return new Uint8Array(await new Response(form).arrayBuffer());
}

const MODULE = "application/javascript+module";

const REPORT = `│ Bundle: 2880.06 KiB / gzip: 540.90 KiB
│
│ Local startup profile:
│   Profile window: 451.2 ms
│   Sampled time: 451.0 ms
│   Active: 244.2 ms (including 38.9 ms garbage collection)
│   Idle: 206.8 ms`;

test("the start-up figure is the Active time, not the profile window or the idle time", () => {
  assert.equal(readActiveMs(REPORT), 244.2);
});

test("a report without an Active time stops the run instead of giving a number", () => {
  assert.throws(() => readActiveMs("✘ [ERROR] Failed to parse body as FormData."), /no "Active" time/);
});

test("the bundle size counts the Worker's modules, raw and gzipped, but not source maps", async () => {
  const dir = await mkdtemp(`${tmpdir()}/bench-size-`);
  try {
    const code = "export default {};\n".repeat(50);
    await writeFile(`${dir}/index.js`, code);
    await writeFile(`${dir}/agent.md`, "# agent\n");
    await writeFile(`${dir}/index.js.map`, "x".repeat(10_000));
    await writeFile(`${dir}/README.md`, "notes");
    const size = await bundleSize(dir);
    assert.equal(size.raw, code.length + "# agent\n".length);
    assert.equal(size.gzip, gzipSync(code).length + gzipSync("# agent\n").length);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("an upload is read as its main module, its compatibility and its modules, without source maps", async () => {
  const read = await readUpload(
    await upload(
      {
        "index.js": { type: MODULE, text: 'import "./part.js"; export default {};' },
        "part.js": { type: MODULE, text: "export const x = 1;" },
        "agent.md": { type: "text/plain", text: "# agent" },
        "index.js.map": { type: "application/source-map", text: "{}" },
      },
      { main_module: "index.js", compatibility_date: "2026-10-01", compatibility_flags: ["nodejs_compat"] },
    ),
  );
  assert.equal(read.mainModule, "index.js");
  assert.equal(read.compatibilityDate, "2026-10-01");
  assert.deepEqual(read.compatibilityFlags, ["nodejs_compat"]);
  assert.deepEqual(
    read.modules.map((m) => [m.path, m.type]),
    [
      ["index.js", "ESModule"],
      ["part.js", "ESModule"],
      ["agent.md", "Text"],
    ],
  );
  assert.equal(read.modules[2]?.contents, "# agent");
});

test("a file that is not an upload, or names no main module, stops the run instead of giving a number", async () => {
  await assert.rejects(readUpload(new TextEncoder().encode("export default {};")), /not a form-data upload/);
  await assert.rejects(
    readUpload(await upload({ "index.js": { type: MODULE, text: "export default {};" } }, {})),
    /names no main_module/,
  );
});

test("a Worker whose import burns CPU reads that much more than one that does not", async () => {
  const metadata = { main_module: "index.js", compatibility_date: "2026-10-01" };
  const light = await readUpload(
    await upload({ "index.js": { type: MODULE, text: "export default {};" } }, metadata),
  );
  // Tens of milliseconds of arithmetic at the top level, run when the module is imported.
  const burn = "let x = 0; for (let i = 0; i < 1e7; i++) x = (x + i * 7) % 1000003; export const sink = x;";
  const heavy = await readUpload(
    await upload(
      {
        "index.js": { type: MODULE, text: `export { sink } from "./burn.js"; export default {};` },
        "burn.js": { type: MODULE, text: burn },
      },
      metadata,
    ),
  );
  const lightMs = await importCpuMs(light);
  const heavyMs = await importCpuMs(heavy);
  assert.ok(lightMs > 0 && lightMs < 15, `an empty Worker's import cost ${lightMs} ms`);
  assert.ok(heavyMs > lightMs + 10, `the burning import cost ${heavyMs} ms against ${lightMs} ms`);
});

test("a Worker whose import throws stops the run instead of giving a number", async () => {
  const broken = await readUpload(
    await upload(
      { "index.js": { type: MODULE, text: 'throw new Error("broken at import"); export default {};' } },
      { main_module: "index.js", compatibility_date: "2026-10-01" },
    ),
  );
  await assert.rejects(importCpuMs(broken), /importing the Worker failed \(500\)/);
});
