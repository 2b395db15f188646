// The start-up figure: read from `wrangler check startup`'s own report, and the bundle's size.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import { bundleSize, readActiveMs } from "../scenarios/startup.mjs";

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
