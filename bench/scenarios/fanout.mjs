// Scenario 1, fan-out: one stream of K text deltas to N devices of one session. Reports latency from
// the server's `at` stamp to receipt (paced stream) and delivered events and characters per second
// (burst), for Parley and the bare-broadcast baseline alike. Devices stay connected across the
// warm-up and the repeats of one shape; each repeat is one more streamed turn (or burst).
import { withTimeout } from "../lib/clock.mjs";
import { closeAll, Device } from "../lib/device.mjs";
import { alternate, figure } from "../lib/figures.mjs";
import { mapLimit } from "../lib/http.mjs";
import { countingText, textReply } from "../lib/script.mjs";
import { percentile } from "../lib/stats.mjs";
import { uniqueName } from "../lib/targets.mjs";

/**
 * @typedef {{ devices: number, deltas: number, chunk: number, paceMs: number }} StreamShape
 * @typedef {object} StreamRun
 * @property {number[]} latencies    receipt − `at`, ms, every live text event on every device
 * @property {number} events         text events delivered, all devices
 * @property {number} chars          text characters delivered, all devices
 * @property {number} windowMs       last receipt − first stream event's `at`
 * @property {boolean} streamedEarly first text reached device 0 before the server stamped the last one
 */

const CONNECT_CONCURRENCY = 25;
const WARM_UP_DELTAS = 100;
/** Parley's request body cap is 64 KiB; the scripts of one shape must fit in one session. */
const MAX_SCRIPT_CHARS = 60_000;

/** @param {StreamShape} shape */
function streamTimeoutMs(shape) {
  return 30_000 + shape.deltas * shape.paceMs * 4;
}

/** Collects one stream's text events on one device. */
class TextCollector {
  text = "";
  events = 0;
  /** @type {number[]} */ latencies = [];
  firstAt = Number.POSITIVE_INFINITY;
  lastAt = 0;
  firstReceivedAt = 0;
  lastReceivedAt = 0;
  dones = 0;

  /**
   * @param {import("../lib/device.mjs").WireEvent} event
   * @param {number} receivedAt
   * @param {boolean} replayed
   */
  add(event, receivedAt, replayed) {
    if (replayed) throw new Error(`stream event seq ${event.seq} arrived as replay, not live`);
    this.text += event.data.text;
    this.events += 1;
    this.latencies.push(receivedAt - event.at);
    this.firstAt = Math.min(this.firstAt, event.at);
    this.lastAt = Math.max(this.lastAt, event.at);
    if (this.firstReceivedAt === 0) this.firstReceivedAt = receivedAt;
    this.lastReceivedAt = receivedAt;
  }

  reset() {
    this.text = "";
    this.events = 0;
    this.latencies = [];
    this.firstAt = Number.POSITIVE_INFINITY;
    this.lastAt = 0;
    this.firstReceivedAt = 0;
    this.lastReceivedAt = 0;
  }
}

/**
 * N devices with a collector each, connected once for all runs of one shape.
 * @param {number} count
 * @param {(collector: TextCollector, index: number) => string} urlOf
 * @param {(collector: TextCollector) => import("../lib/device.mjs").EventListener} listenerOf
 */
async function connectDevices(count, urlOf, listenerOf) {
  const collectors = Array.from({ length: count }, () => new TextCollector());
  const devices = await mapLimit(collectors, CONNECT_CONCURRENCY, (collector, i) =>
    Device.connect(urlOf(collector, i), { onEvent: listenerOf(collector) }),
  );
  return { collectors, devices };
}

/**
 * @param {Device[]} devices
 * @param {TextCollector[]} collectors
 * @param {string} expected
 * @param {string} label
 * @returns {StreamRun}
 */
function summarise(devices, collectors, expected, label) {
  for (const [i, device] of devices.entries()) {
    const collector = /** @type {TextCollector} */ (collectors[i]);
    if (device.gaps || device.duplicates) {
      throw new Error(
        `${label}: device ${i} saw ${device.gaps} seq gaps and ${device.duplicates} duplicates`,
      );
    }
    if (collector.text !== expected) {
      throw new Error(
        `${label}: device ${i} received ${collector.text.length} of ${expected.length} characters` +
          (collector.text.length === expected.length ? " (in the wrong order)" : ""),
      );
    }
  }
  const latencies = collectors.flatMap((collector) => collector.latencies);
  const firstAt = Math.min(...collectors.map((collector) => collector.firstAt));
  const lastReceivedAt = Math.max(...collectors.map((collector) => collector.lastReceivedAt));
  const first = /** @type {TextCollector} */ (collectors[0]);
  return {
    latencies,
    events: latencies.length,
    chars: expected.length * collectors.length,
    windowMs: Math.max(lastReceivedAt - firstAt, 0.001),
    streamedEarly: first.firstReceivedAt < first.lastAt,
  };
}

/**
 * The baseline: a bare object broadcasts K synthetic deltas of `chunk` characters per run.
 * @param {import("../lib/targets.mjs").BareTarget} bare
 * @param {StreamShape} shape
 * @returns {Promise<{ run: (deltas: number) => Promise<StreamRun>, close: () => Promise<void> }>}
 */
async function bareStream(bare, shape) {
  const name = uniqueName("fanout");
  const { collectors, devices } = await connectDevices(
    shape.devices,
    () => bare.socketUrl(name),
    (collector) => (event, at, replayed) => {
      if (event.type === "text_delta") collector.add(event, at, replayed);
    },
  );
  const run = async (/** @type {number} */ deltas) => {
    for (const collector of collectors) collector.reset();
    const all = Promise.all(devices.map((device, i) => device.until(() => collectors[i]?.events === deltas)));
    all.catch(() => {}); // awaited below; a failure during the trigger must not go unhandled
    await bare.burst(name, { n: deltas, paceMs: shape.paceMs, chars: shape.chunk });
    await withTimeout(all, streamTimeoutMs(shape), "bare fan-out: not every device got every delta");
    return summarise(devices, collectors, "x".repeat(deltas * shape.chunk), "bare fan-out");
  };
  return { run, close: () => closeAll(devices) };
}

/**
 * Parley: one session whose scripted model streams one reply of K deltas per message, watched by
 * N devices.
 * @param {import("../lib/targets.mjs").ParleyTarget} parley
 * @param {StreamShape} shape
 * @param {number[]} turns deltas of each turn, in order (warm-up first)
 * @returns {Promise<{ run: (deltas: number) => Promise<StreamRun>, close: () => Promise<void> }>}
 */
async function parleyStream(parley, shape, turns) {
  const texts = turns.map((deltas) => countingText(deltas, shape.chunk));
  const total = texts.reduce((sum, text) => sum + text.length, 0);
  if (total > MAX_SCRIPT_CHARS) {
    throw new Error(`fan-out: ${total} characters of script exceed one session; lower the deltas or repeats`);
  }
  const session = await parley.createSession({
    script: texts.map((text) => textReply(text, { textChunkSize: shape.chunk, paceMs: shape.paceMs })),
  });
  const { collectors, devices } = await connectDevices(
    shape.devices,
    (_, i) => parley.socketUrl(session, { device: `fan-${i}` }),
    (collector) => (event, at, replayed) => {
      if (event.type === "text_delta") collector.add(event, at, replayed);
      else if (event.type === "done") collector.dones += 1;
    },
  );
  let turn = 0;
  const run = async (/** @type {number} */ deltas) => {
    const expected = texts[turn];
    if (expected?.length !== deltas * shape.chunk)
      throw new Error("fan-out: runs out of step with the script");
    turn += 1;
    for (const collector of collectors) collector.reset();
    const all = Promise.all(devices.map((device, i) => device.until(() => collectors[i]?.dones === turn)));
    all.catch(() => {}); // awaited below; a failure during the trigger must not go unhandled
    const sender = /** @type {Device} */ (devices[0]);
    const ack = await withTimeout(
      sender.request({ type: "send_message", text: "Stream." }),
      10_000,
      "send_message ack",
    );
    if (!ack.ok) throw new Error(`Parley fan-out: send_message refused: ${JSON.stringify(ack.error)}`);
    await withTimeout(all, streamTimeoutMs(shape), "Parley fan-out: not every device saw the turn end");
    return summarise(devices, collectors, expected, "Parley fan-out");
  };
  return { run, close: () => closeAll(devices) };
}

/** @param {StreamRun} run */
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
 * @param {StreamShape} shape
 * @param {number} repeats
 */
async function measureShape(parley, bare, shape, repeats) {
  const warm = Math.min(WARM_UP_DELTAS, shape.deltas);
  const bareSide = await bareStream(bare, shape);
  const parleySide = await parleyStream(parley, shape, [warm, ...Array(repeats).fill(shape.deltas)]);
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
