// The external-agent figures: for a card, the slowest device decides, and a device that never saw
// the card stops the run instead of giving a number; the scenario itself runs against real servers.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { lastArrival } from "../scenarios/external-agent.mjs";

test("a card's figure is its arrival on the slowest device, not the first", () => {
  assert.equal(lastArrival(1_000, [1_004, 1_012.5, 1_007], 3), 12.5);
});

test("a card that reached fewer devices than were watching stops the run", () => {
  assert.throws(() => lastArrival(1_000, [1_004, 1_005], 3), /reached 2 of 3 devices/);
});

// The scenario against real servers (a snapshot of the working tree under `wrangler dev`, the bare
// baseline beside it, and the built dist/client.js): every figure is measured, none throws. It is
// what found the bridge's wait still watching for a socket the typed client no longer opens.
const RUN = fileURLToPath(new URL("../run.mjs", import.meta.url));

test("the external-agent scenario measures its three figures against real servers", async () => {
  const dir = await mkdtemp(join(tmpdir(), "parley-bench-agent-"));
  try {
    const out = join(dir, "agent.md");
    // The test's file has its own process, so waiting on the run blocks nothing else.
    const run = spawnSync(process.execPath, [RUN, "--scenarios", "agent", "--repeats", "1", "--out", out], {
      encoding: "utf8",
    });
    assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
    const rows = (await readFile(out, "utf8")).split("\n").filter((line) => line.includes("External agent"));
    assert.deepEqual(
      rows.map((row) => row.split("|")[2].trim()),
      [
        "an agent opens a card (HTTP) → visible on 10 devices (the slowest)",
        "an answer on a device → the waiting agent's long-poll returns it",
        "an answer on a device → the waiting bridge (typed client's long-poll) returns it",
      ],
    );
    for (const row of rows) assert.match(row.split("|")[3], /^ [\d.]+ ms $/, row);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
