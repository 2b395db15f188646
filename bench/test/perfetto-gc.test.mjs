// The collector's pauses as read from workerd's Perfetto trace: the parts of the format the runtime
// writes (interned names, a sequence's incremental clock), and a real workerd's trace.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { startWranglerDev } from "../../scripts/wrangler-dev.mjs";
import {
  gcPauses,
  protoFields,
  readGcPauses,
  tracedWorkerd,
  traceSlices,
  traceWritten,
} from "../lib/perfetto-gc.mjs";

/** @param {number} value */
function varint(value) {
  let n = Math.round(value);
  const bytes = [];
  while (n >= 0x80) {
    bytes.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  bytes.push(n);
  return bytes;
}

/**
 * One protobuf message from [field, value] pairs: numbers as varints, strings and messages length-delimited.
 * @param {Array<[number, number | string | Uint8Array]>} fields
 */
function message(fields) {
  const out = [];
  for (const [field, value] of fields) {
    if (typeof value === "number") out.push(...varint(field * 8), ...varint(value));
    else {
      const bytes = typeof value === "string" ? new TextEncoder().encode(value) : value;
      out.push(...varint(field * 8 + 2), ...varint(bytes.length), ...bytes);
    }
  }
  return Uint8Array.from(out);
}

const MS = 1_000_000;
const BOOT_AHEAD_OF_MONOTONIC = 5 * MS;
const START = 1_000_000 * MS; // on the trace's clock (BOOTTIME)

/** A clock snapshot: builtin MONOTONIC (3), BOOTTIME (6), and optionally a sequence clock (64). */
function clocks(bootNs, sequenceClock) {
  const list = [
    message([
      [1, 3],
      [2, bootNs - BOOT_AHEAD_OF_MONOTONIC],
    ]),
    message([
      [1, 6],
      [2, bootNs],
    ]),
  ];
  if (sequenceClock !== undefined)
    list.push(
      message([
        [1, 64],
        [2, sequenceClock],
      ]),
    );
  return message(list.map((clock) => [1, clock]));
}

/** A packet of sequence 2 whose timestamp is a delta on the sequence's clock. */
function event(deltaNs, type, nameIid, extra = []) {
  return message([
    [8, deltaNs],
    [10, 2],
    [
      11,
      message([
        [9, type],
        [10, nameIid],
      ]),
    ],
    ...extra,
  ]);
}

function names(entries) {
  return message(
    entries.map(([iid, name]) => [
      2,
      message([
        [1, iid],
        [2, name],
      ]),
    ]),
  );
}

/** Sequence 2's first packet: its state cleared, its clock incremental from START, and these names. */
function sequenceStart(entries) {
  return message([
    [8, 0],
    [10, 2],
    [13, 1],
    [59, message([[58, 64]])],
    [6, clocks(START, START)],
    [12, names(entries)],
  ]);
}

function trace(packets) {
  return message(packets.map((packet) => [1, packet]));
}

const BEGIN = 1;
const END = 2;

test("a mark-compact's pause is split into its phases, on the sequence's incremental clock", () => {
  const bytes = trace([
    message([
      [6, clocks(START - 10 * MS)],
      [10, 1],
    ]),
    sequenceStart([
      [1, "ObservablePause"],
      [2, "V8.GC_MARK_COMPACTOR"],
      [3, "V8.GC_MC_MARK"],
      [4, "CppGC.SweepFinish"],
      [5, "V8.GC_MC_CLEAR"],
    ]),
    event(0, BEGIN, 1),
    event(0, BEGIN, 2),
    event(0.1 * MS, BEGIN, 3),
    event(5 * MS, END, 3),
    event(0, BEGIN, 5),
    event(2 * MS, END, 5),
    event(2.9 * MS, END, 2),
    event(0, BEGIN, 4),
    event(20 * MS, END, 4),
    event(1 * MS, END, 1),
  ]);
  const [pause, ...more] = gcPauses(traceSlices(bytes));
  assert.equal(more.length, 0);
  assert.equal(pause?.kind, "mark-compact");
  assert.equal(pause?.ms, 31);
  assert.deepEqual(pause?.phases, { mark: 5, clear: 2, "c++ sweep": 20, rest: 4 });
  // Converted to CLOCK_MONOTONIC, the clock a harness reads with process.hrtime.
  assert.equal(pause?.startNs, START - BOOT_AHEAD_OF_MONOTONIC);
});

test("after a sequence's state is cleared, only the names interned since count", () => {
  const bytes = trace([
    sequenceStart([
      [1, "Other"],
      [3, "ObservablePause"],
    ]),
    event(0, BEGIN, 1),
    event(MS, END, 1),
    message([
      [8, 0],
      [10, 2],
      [13, 1],
      [
        12,
        names([
          [1, "ObservablePause"],
          [2, "V8.GC_SCAVENGER"],
        ]),
      ],
    ]),
    event(MS, BEGIN, 1),
    event(0, BEGIN, 2),
    event(2 * MS, END, 2),
    event(0, END, 1),
    // Named by an id the cleared state had: not a pause any more.
    event(MS, BEGIN, 3),
    event(MS, END, 3),
  ]);
  const pauses = gcPauses(traceSlices(bytes));
  assert.deepEqual(
    pauses.map((p) => [p.kind, p.ms]),
    [["scavenge", 2]],
  );
  assert.deepEqual(pauses[0]?.phases, { scavenge: 2, rest: 0 });
});

test("a trace cut short is an error, not a shorter list of pauses", () => {
  const whole = trace([
    message([
      [8, 0],
      [10, 2],
      [12, names([[1, "ObservablePause"]])],
    ]),
  ]);
  assert.throws(() => traceSlices(whole.subarray(0, whole.length - 3)), /runs past the end/);
  assert.throws(() => [...protoFields(Uint8Array.from([0x08, 0x80]))], /varint runs past the end/);
});

test("a real workerd's trace holds the pauses of the collections a Worker's garbage causes, on the harness's clock", async () => {
  const dir = await mkdtemp(join(tmpdir(), "parley-gc-test-"));
  const previous = process.env.MINIFLARE_WORKERD_PATH;
  try {
    await writeFile(
      join(dir, "worker.mjs"),
      `export default { fetch() { let kept = []; for (let i = 0; i < 300000; i++) { kept.push({ i, s: "x" + i }); if (kept.length > 1000) kept = []; } return new Response("done"); } };\n`,
    );
    await writeFile(
      join(dir, "wrangler.toml"),
      `name = "gc-trace"\nmain = "worker.mjs"\ncompatibility_date = "2026-10-01"\n`,
    );
    process.env.MINIFLARE_WORKERD_PATH = await tracedWorkerd(dir);
    const server = await startWranglerDev({ label: "gc-trace", config: join(dir, "wrangler.toml") });
    const before = Number(process.hrtime.bigint());
    let after = 0;
    try {
      for (let i = 0; i < 3; i++) assert.equal(await (await fetch(server.baseUrl)).text(), "done");
      after = Number(process.hrtime.bigint());
      await traceWritten(dir);
    } finally {
      await server.stop();
    }
    const pauses = await readGcPauses(dir);
    const scavenges = pauses.filter(
      (p) => p.kind === "scavenge" && p.startNs >= before && p.startNs <= after,
    );
    assert.ok(scavenges.length > 0, `no scavenge during the requests among ${pauses.length} pauses`);
    for (const pause of pauses) assert.ok(pause.ms > 0 && pause.phases.rest >= 0);
  } finally {
    if (previous === undefined) delete process.env.MINIFLARE_WORKERD_PATH;
    else process.env.MINIFLARE_WORKERD_PATH = previous;
    await rm(dir, { recursive: true, force: true });
  }
});
