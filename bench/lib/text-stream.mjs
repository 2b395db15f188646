// One text stream watched by N connected devices, against either server: Parley (a scripted reply
// per message) or the baseline (a burst per request). Each run checks that every device received
// the whole text in order with no seq gaps, and returns what the devices measured.
import { withTimeout } from "./clock.mjs";
import { closeAll, Device } from "./device.mjs";
import { mapLimit } from "./http.mjs";
import { countingText, textReply } from "./script.mjs";
import { uniqueName } from "./targets.mjs";

/**
 * @typedef {{ devices: number, deltas: number, chunk: number, paceMs: number }} StreamShape
 * @typedef {object} StreamRun
 * @property {number[]} latencies    receipt − `at`, ms, every live text event on every device
 * @property {number} events         text events delivered, all devices
 * @property {number} chars          text characters delivered, all devices
 * @property {number} windowMs       last receipt − first stream event's `at`
 * @property {boolean} streamedEarly first text reached device 0 before the server stamped the last one
 * @typedef {{ run: (deltas: number) => Promise<StreamRun>, close: () => Promise<void> }} TextStream
 */

const CONNECT_CONCURRENCY = 25;
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
 * @returns {Promise<TextStream>}
 */
export async function bareTextStream(bare, shape) {
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
 * @returns {Promise<TextStream>}
 */
export async function parleyTextStream(parley, shape, turns) {
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
