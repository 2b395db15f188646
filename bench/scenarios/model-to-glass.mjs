// Scenario 1, model-to-glass: a model stream (the local Messages API, each delta stamped at
// emission) watched by N devices on Parley, the bare baseline and, with --peers, the agents SDK,
// run alternately in the same run. Latency is receipt − emission for every delta on every device.
import { withTimeout } from "../lib/clock.mjs";
import { Device } from "../lib/device.mjs";
import { figure } from "../lib/figures.mjs";
import { agentsGlass, bareGlass, GlassCollector, parleyGlass, promptOf } from "../lib/glass-sides.mjs";
import { percentile } from "../lib/stats.mjs";

const SCENARIO = "1. Model-to-glass";
/**
 * Most frames one burst may put on all devices together: past this, the one load-generator process
 * (and `wrangler dev`'s proxy in front of the objects) becomes what is measured, and under load the
 * baseline's 200 000-frame burst to 100 devices lost frames.
 */
const MAX_BURST_FRAMES = 40_000;

/** The pause-mid-sentence stream: 20 deltas at a real model's pace, 2 s of silence, 20 more. */
const PAUSE_SHAPE = { n: 40, pace: 20, pauseAt: 20, pauseMs: 2_000 };

/**
 * @typedef {object} GlassOptions
 * @property {number[]} devices
 * @property {number[]} paces
 * @property {number} pacedDeltas   deltas of the fastest paced stream; slower ones stream ~2 s
 * @property {number} burstDeltas
 * @property {number} repeats
 * @typedef {import("../lib/glass-sides.mjs").GlassSide} GlassSide
 * @typedef {import("../lib/glass-sides.mjs").GlassRun} GlassRun
 */

/**
 * Deltas of a paced stream: `pacedDeltas` at the fastest pace, about two seconds' worth at slower
 * ones, and never more than `MAX_BURST_FRAMES` frames over all `devices` (the load generator's limit).
 * @param {number} pace @param {number} pacedDeltas @param {{ fastest?: number, devices?: number }} [run]
 */
export function deltasFor(pace, pacedDeltas, { fastest = pace, devices = 1 } = {}) {
  const wanted =
    pace <= fastest ? pacedDeltas : Math.max(20, Math.min(pacedDeltas, Math.round(2_000 / pace)));
  return Math.min(wanted, Math.max(20, Math.floor(MAX_BURST_FRAMES / devices)));
}

/**
 * The order the sides run in round `round`: forward, then backward, and so on. A server can still
 * be busy when its stream has reached every device (the agents SDK stores the chat after it, and
 * any side may be collecting garbage); in a fixed order, and in any rotation of it, the same side
 * would always run right after it. Alternating, the side after the agents SDK's run differs from
 * round to round.
 * @template T @param {readonly T[]} sides @param {number} round
 */
export function roundOrder(sides, round) {
  return round % 2 === 0 ? [...sides] : [...sides].reverse();
}

/**
 * One unrecorded warm-up per side, then `repeats` rounds with every side run once per round.
 * @param {GlassSide[]} sides @param {import("../lib/glass-sides.mjs").StreamShape} shape @param {number} repeats
 * @param {(side: GlassSide, run: () => Promise<GlassRun>) => Promise<GlassRun>} [around]
 */
async function rounds(sides, shape, repeats, around = (_, run) => run()) {
  /** @type {Record<string, GlassRun[]>} */
  const out = Object.fromEntries(sides.map((side) => [side.name, []]));
  for (const side of sides) await side.run(shape);
  for (let i = 0; i < repeats; i++) {
    for (const side of roundOrder(sides, i)) out[side.name]?.push(await around(side, () => side.run(shape)));
  }
  return out;
}

/**
 * @param {Record<string, GlassRun[]>} runs @param {(run: GlassRun) => number} pick
 * @returns {{ parley: number[], bare: number[] | null, agents: number[] | null }}
 */
function values(runs, pick) {
  return {
    parley: (runs.parley ?? []).map(pick),
    bare: runs.bare ? runs.bare.map(pick) : null,
    agents: runs.agents ? runs.agents.map(pick) : null,
  };
}

/**
 * @param {{ parley: import("../lib/targets.mjs").ParleyTarget, bare: import("../lib/targets.mjs").BareTarget,
 *   agentsUrl: string | null, modelUrl: string, options: GlassOptions, log: (line: string) => void }} context
 * @returns {Promise<import("../lib/figures.mjs").Figure[]>}
 */
export async function runGlass({ parley, bare, agentsUrl, modelUrl, options, log }) {
  /** @type {import("../lib/figures.mjs").Figure[]} */
  const figures = [];
  const judged = options.devices.includes(10) ? 10 : options.devices[0];
  const fastest = Math.min(...options.paces);
  for (const devices of options.devices) {
    const what = `${devices} device${devices === 1 ? "" : "s"}`;
    /** @type {GlassSide[]} */
    const sides = [await parleyGlass(parley, devices), await bareGlass(bare, devices, modelUrl)];
    if (agentsUrl) sides.push(await agentsGlass(agentsUrl, devices));
    try {
      for (const pace of options.paces) {
        const shape = { n: deltasFor(pace, options.pacedDeltas, { fastest, devices }), pace };
        log(`model-to-glass: ${what}, ${shape.n} deltas ${pace} ms apart`);
        /** @type {number[]} */ const rowsPerThousand = [];
        /** @type {number[]} */ const rowsPerSecond = [];
        const fixed = devices === options.devices[0] ? await fixedRows(sides) : null;
        const runs = await rounds(sides, shape, options.repeats, async (side, run) => {
          if (fixed === null || !side.rows) return run();
          const before = await side.rows();
          const result = await run();
          const streamed = (await side.rows()) - before - fixed;
          rowsPerThousand.push((streamed / shape.n) * 1000);
          rowsPerSecond.push(streamed / ((shape.n * pace) / 1000));
          return result;
        });
        const label = `${shape.n} deltas ${pace} ms apart, ${what}`;
        for (const p of /** @type {const} */ ([50, 99])) {
          figures.push(
            figure({
              scenario: SCENARIO,
              label: `${label}: p${p} model → glass`,
              unit: "ms",
              ...values(runs, (run) => percentile(run.latencies, p)),
              target: p !== 99 ? null : latencyTarget(devices, judged, pace === fastest),
            }),
          );
        }
        figures.push(
          figure({
            scenario: SCENARIO,
            label: `${label}: first delta model → glass (p50 over devices)`,
            unit: "ms",
            ...values(runs, (run) => percentile(run.first, 50)),
          }),
          figure({
            scenario: SCENARIO,
            label: `${label}: p50 of live deltas sent right after a stored write (output gate)`,
            unit: "ms",
            parley: (runs.parley ?? []).map((run) =>
              run.afterWrite.length > 0 ? percentile(run.afterWrite, 50) : 0,
            ),
          }),
        );
        if (fixed !== null) {
          figures.push(
            figure({
              scenario: "2. Storage",
              label: `rows written per 1 000 streamed deltas (${pace} ms apart; beyond a one-delta turn)`,
              unit: "rows",
              parley: rowsPerThousand,
              target: { atMost: 50 },
            }),
            figure({
              scenario: "2. Storage",
              label: `rows written per second of streaming (${pace} ms apart)`,
              unit: "rows",
              parley: rowsPerSecond,
              target: { atMost: 10 },
            }),
          );
        }
      }

      const burst = { n: Math.min(options.burstDeltas, Math.floor(MAX_BURST_FRAMES / devices)), pace: 0 };
      log(`model-to-glass: ${what}, ${burst.n} deltas in a burst`);
      /** @type {number[]} */ const burstRows = [];
      const fixed = devices === options.devices[0] ? await fixedRows(sides) : null;
      const burstRuns = await rounds(sides, burst, options.repeats, async (side, run) => {
        if (fixed === null || !side.rows) return run();
        const before = await side.rows();
        const result = await run();
        burstRows.push((((await side.rows()) - before - fixed) / burst.n) * 1000);
        return result;
      });
      figures.push(
        figure({
          scenario: SCENARIO,
          label: `burst of ${burst.n} deltas, ${what}: delivered deltas/s (all devices)`,
          unit: "deltas/s",
          ...values(burstRuns, (run) => run.delivered / (run.windowMs / 1000)),
          target: devices === judged ? { ratioAtLeast: 1 } : null,
          better: "higher",
        }),
      );
      if (fixed !== null) {
        figures.push(
          figure({
            scenario: "2. Storage",
            label: `rows written per 1 000 streamed deltas (burst; beyond a one-delta turn)`,
            unit: "rows",
            parley: burstRows,
            target: { atMost: 50 },
          }),
        );
      }

      if (devices === judged) {
        log(`model-to-glass: ${what}, the model pauses ${PAUSE_SHAPE.pauseMs} ms mid-sentence`);
        const pauseRuns = await rounds(sides, PAUSE_SHAPE, options.repeats);
        figures.push(
          figure({
            scenario: SCENARIO,
            label: `model pauses ${PAUSE_SHAPE.pauseMs / 1000} s mid-sentence, ${what}: worst delta model → glass`,
            unit: "ms",
            ...values(pauseRuns, (run) => Math.max(...run.latencies)),
            target: { atMost: 100 },
            aggregate: "worst",
          }),
          figure({
            scenario: SCENARIO,
            label: `model pauses mid-sentence: text before the pause stored after (from its last emission)`,
            unit: "ms",
            parley: (pauseRuns.parley ?? []).map((run) => run.storedAfterPause ?? Number.POSITIVE_INFINITY),
            target: { atMost: 100 },
            aggregate: "worst",
          }),
        );
      }
    } finally {
      await Promise.all(sides.map((side) => side.close()));
    }
    if (devices === options.devices[0]) figures.push(await reconnectMidStream(parley, options.repeats, log));
  }
  return figures;
}

/**
 * The p99 budget: at the judged device count, within 1.5× the baseline and below the agents SDK; at
 * 100 devices and the fastest pace, within 1.5× the baseline (the fan-out cost must grow like bare's).
 * @param {number} devices @param {number} judged @param {boolean} fastest
 * @returns {import("../lib/figures.mjs").Target | null}
 */
export function latencyTarget(devices, judged, fastest) {
  if (devices === judged) return { ratioAtMost: 1.5, belowAgents: true };
  if (devices >= 100 && fastest) return { ratioAtMost: 1.5 };
  return null;
}

/** Rows a one-delta turn writes: the fixed cost the streaming figures leave out. */
async function fixedRows(/** @type {GlassSide[]} */ sides) {
  const side = sides.find((s) => s.rows);
  if (!side?.rows) return null;
  const shape = { n: 1, pace: 0 };
  await side.run(shape);
  const before = await side.rows();
  await side.run(shape);
  return (await side.rows()) - before;
}

/**
 * A device drops its socket mid-stream and resumes from its cursor while the model streams on; its
 * text must end exact, and no moment after the reconnect may show a gap.
 * @param {import("../lib/targets.mjs").ParleyTarget} parley @param {number} repeats @param {(line: string) => void} log
 */
async function reconnectMidStream(parley, repeats, log) {
  log("model-to-glass: reconnect mid-stream");
  const results = [];
  for (let i = 0; i < repeats; i++) {
    const session = await parley.createSession({});
    const collector = new GlassCollector();
    let gaps = 0;
    let dones = 0;
    const attach = (/** @type {number} */ after) =>
      Device.connect(parley.socketUrl(session, { after, device: "reconnecting" }), {
        after,
        onDelta: (delta, at) => {
          collector.add(delta.offset, delta.text, at);
          if (after > 0 && collector.merged.ahead.length > 0) gaps += 1;
        },
        onEvent: (event, at) => {
          if (event.type === "done") dones += 1;
          if (event.type === "text_delta") collector.add(event.data.offset ?? null, event.data.text, at);
        },
      });
    const shape = { n: 150, pace: 10 };
    const first = await attach(0);
    await first.request({ type: "send_message", text: promptOf(shape) });
    await withTimeout(
      first.until(() => collector.stamps.length >= 40),
      20_000,
      "reconnect: first deltas",
    );
    const cursor = first.lastSeq;
    await first.close();
    await new Promise((resolve) => setTimeout(resolve, 150));
    const second = await attach(cursor);
    await withTimeout(
      second.until(() => dones >= 1),
      30_000,
      "reconnect: turn end",
    );
    await second.close();
    let exact = 1;
    try {
      collector.check(shape.n, "reconnect");
    } catch {
      exact = 0;
    }
    results.push(exact && gaps === 0 ? 1 : 0);
  }
  return figure({
    scenario: SCENARIO,
    label:
      "reconnect mid-stream (150 deltas 10 ms apart, socket dropped at delta 40): exact text, never a gap",
    unit: "yes/no",
    parley: results,
    target: { equals: 1 },
    aggregate: "worst",
    better: "higher",
  });
}
