// Scenario 1, fan-out: one stream of K text deltas to N devices of one session. Reports latency from
// the server's `at` stamp to receipt (paced stream) and delivered events and characters per second
// (burst), for Parley and the bare-broadcast baseline alike. Devices stay connected across the
// warm-up and the repeats of one shape; each repeat is one more streamed turn (or burst).
import { alternate, figure } from "../lib/figures.mjs";
import { percentile } from "../lib/stats.mjs";
import { bareTextStream, parleyTextStream } from "../lib/text-stream.mjs";

const WARM_UP_DELTAS = 100;

/** @param {import("../lib/text-stream.mjs").StreamRun} run */
function streamFigures(run) {
  return {
    p50: percentile(run.latencies, 50),
    p95: percentile(run.latencies, 95),
    p99: percentile(run.latencies, 99),
    eventsPerSecond: run.events / (run.windowMs / 1000),
    charsPerSecond: run.chars / (run.windowMs / 1000),
    streamedEarly: run.streamedEarly ? 1 : 0,
  };
}

/**
 * Warm-up, then `repeats` alternating runs of one shape against both targets.
 * @param {import("../lib/targets.mjs").ParleyTarget} parley
 * @param {import("../lib/targets.mjs").BareTarget} bare
 * @param {import("../lib/text-stream.mjs").StreamShape} shape
 * @param {number} repeats
 */
async function measureShape(parley, bare, shape, repeats) {
  const warm = Math.min(WARM_UP_DELTAS, shape.deltas);
  const bareSide = await bareTextStream(bare, shape);
  const parleySide = await parleyTextStream(parley, shape, [warm, ...Array(repeats).fill(shape.deltas)]);
  try {
    await bareSide.run(warm);
    await parleySide.run(warm);
    return await alternate(
      repeats,
      async () => streamFigures(await bareSide.run(shape.deltas)),
      async () => streamFigures(await parleySide.run(shape.deltas)),
      { warmUp: false },
    );
  } finally {
    await Promise.all([bareSide.close(), parleySide.close()]);
  }
}

/**
 * @typedef {object} FanoutOptions
 * @property {number[]} devices
 * @property {number} pacedDeltas
 * @property {number} burstDeltas
 * @property {number} chunk
 * @property {number} paceMs
 * @property {number} repeats
 */

/**
 * Runs every (devices × paced/burst) combination and returns its figures.
 * @param {{ parley: import("../lib/targets.mjs").ParleyTarget, bare: import("../lib/targets.mjs").BareTarget, options: FanoutOptions, log: (line: string) => void }} context
 * @returns {Promise<import("../lib/figures.mjs").Figure[]>}
 */
export async function runFanout({ parley, bare, options, log }) {
  /** @type {import("../lib/figures.mjs").Figure[]} */
  const figures = [];
  const scenario = "1. Fan-out";
  for (const devices of options.devices) {
    const paced = { devices, deltas: options.pacedDeltas, chunk: options.chunk, paceMs: options.paceMs };
    const burst = { devices, deltas: options.burstDeltas, chunk: options.chunk, paceMs: 0 };
    log(`fan-out: ${devices} device(s), ${paced.deltas} deltas ${paced.paceMs} ms apart`);
    const pacedRuns = await measureShape(parley, bare, paced, options.repeats);
    log(`fan-out: ${devices} device(s), ${burst.deltas} deltas in a burst`);
    const burstRuns = await measureShape(parley, bare, burst, options.repeats);
    const what = `${devices} device${devices === 1 ? "" : "s"}`;
    for (const p of /** @type {const} */ (["p50", "p95", "p99"])) {
      figures.push(
        figure({
          scenario,
          label: `paced (${paced.deltas} deltas, ${paced.paceMs} ms apart), ${what}: ${p} latency at → receipt`,
          unit: "ms",
          parley: pacedRuns.parley.map((run) => run[p]),
          bare: pacedRuns.bare.map((run) => run[p]),
          target: p === "p99" && devices === 10 ? { ratioAtMost: 1.3 } : null,
        }),
      );
    }
    figures.push(
      figure({
        scenario,
        label: `burst (${burst.deltas} deltas), ${what}: delivered text characters/s`,
        unit: "chars/s",
        parley: burstRuns.parley.map((run) => run.charsPerSecond),
        bare: burstRuns.bare.map((run) => run.charsPerSecond),
        target: devices === 10 ? { ratioAtLeast: 0.8 } : null,
        better: "higher",
      }),
      figure({
        scenario,
        label: `burst (${burst.deltas} deltas), ${what}: delivered events/s (Parley coalesces deltas)`,
        unit: "events/s",
        parley: burstRuns.parley.map((run) => run.eventsPerSecond),
        bare: burstRuns.bare.map((run) => run.eventsPerSecond),
        better: "higher",
      }),
    );
    if (devices === options.devices[0]) {
      figures.push(
        figure({
          scenario,
          label: `paced, ${what}: first text reaches the device while the model is still streaming`,
          unit: "yes/no",
          parley: pacedRuns.parley.map((run) => run.streamedEarly),
          bare: pacedRuns.bare.map((run) => run.streamedEarly),
          target: { equals: 1 },
          aggregate: "worst",
          better: "higher",
        }),
      );
    }
  }
  return figures;
}
