// One model stream watched by N devices on each server under test — Parley, the bare baseline and
// the agents peer — all fed by the same local Messages API. Every device rebuilds the text the way
// its client would (Parley: merge live and stored copies by offset) and times each stamped delta
// from the model's emission to its own receipt. Any lost, doubled or reordered text fails the run.
import WebSocket from "ws";
import { EMPTY_TEXT, mergeText } from "../../src/protocol/text/text-merge.ts";
import { now, withTimeout } from "./clock.mjs";
import { closeAll, Device } from "./device.mjs";
import { mapLimit, requestJson } from "./http.mjs";
import { readStamps, STAMP_CHARS } from "./mock-model.mjs";
import { uniqueName } from "./targets.mjs";

const CONNECT_CONCURRENCY = 25;

/**
 * @typedef {{ n: number, pace: number, pauseAt?: number, pauseMs?: number }} StreamShape
 * @typedef {object} GlassRun
 * @property {number[]} latencies  receipt − emission, ms, every delta on every device
 * @property {number[]} first      the same for each device's first delta
 * @property {number} windowMs      last receipt − first emission
 * @property {number} delivered     deltas delivered, all devices
 * @property {number[]} afterWrite  Parley: latencies of live deltas that followed a stored write
 * @property {number | null} storedAfterPause  Parley: ms from the last emission before a pause to
 *   the stored event that covers it, on device 0
 * @typedef {{ name: string, run: (shape: StreamShape) => Promise<GlassRun>, close: () => Promise<void>, rows?: () => Promise<number> }} GlassSide
 */

/** @param {StreamShape} shape */
export function promptOf(shape) {
  const pause = shape.pauseAt !== undefined ? ` pauseAt=${shape.pauseAt} pauseMs=${shape.pauseMs}` : "";
  return `stream n=${shape.n} pace=${shape.pace}${pause}`;
}

/** @param {StreamShape} shape */
function timeoutOf(shape) {
  return 30_000 + shape.n * shape.pace * 4 + (shape.pauseMs ?? 0);
}

/** What one device has of the current stream, and when each delta became visible on it. */
export class GlassCollector {
  merged = EMPTY_TEXT;
  parsed = 0;
  /** The merged text after the last whole stamp read (the start of one not yet complete). */
  unread = "";
  /** @type {number[]} */ stamps = [];
  /** @type {number[]} */ latencies = [];
  /** @type {number[]} */ afterWrite = [];
  lastReceivedAt = 0;
  dones = 0;
  wroteSinceDelta = false;
  /** @type {Array<{ end: number, at: number }>} */ stored = [];

  reset() {
    this.merged = EMPTY_TEXT;
    this.parsed = 0;
    this.unread = "";
    this.stamps = [];
    this.latencies = [];
    this.afterWrite = [];
    this.lastReceivedAt = 0;
    this.wroteSinceDelta = false;
    this.stored = [];
  }

  /**
   * Adds text at `offset` (appended when null) and times the stamps it completed.
   * @param {number | null} offset @param {string} text @param {number} receivedAt
   * @returns {number[]} the latencies of the stamps this piece made visible
   */
  add(offset, text, receivedAt) {
    const before = this.merged;
    const at = offset ?? before.text.length;
    this.merged = mergeText(before, at, text);
    if (this.merged === before) return []; // nothing new: a stored copy of text already seen
    // An in-order piece (nearly every one) is read on its own: reading it out of the merged text
    // would flatten that whole string on every delta, harness work that grows with the stream
    // (quadratic over 2 000 deltas) and competes with the servers for the same cores.
    const appended = at === before.text.length && before.ahead.length === 0 && this.merged.ahead.length === 0;
    this.unread = appended ? this.unread + text : this.merged.text.slice(this.parsed);
    const { stamps, next } = readStamps(this.unread, 0);
    this.parsed += next;
    this.unread = this.unread.slice(next);
    const latencies = stamps.map((stamp) => receivedAt - stamp);
    this.stamps.push(...stamps);
    this.latencies.push(...latencies);
    if (stamps.length > 0) this.lastReceivedAt = receivedAt;
    return latencies;
  }

  /** Throws unless the device holds exactly `n` stamps, in emission order, and nothing else. */
  check(n, label) {
    if (this.merged.ahead.length > 0 || this.parsed !== this.merged.text.length)
      throw new Error(`${label}: text has a gap or a torn stamp`);
    if (this.stamps.length !== n) throw new Error(`${label}: ${this.stamps.length} of ${n} deltas arrived`);
    for (let i = 1; i < this.stamps.length; i++) {
      if (/** @type {number} */ (this.stamps[i]) < /** @type {number} */ (this.stamps[i - 1]))
        throw new Error(`${label}: deltas out of order`);
    }
  }
}

/**
 * @param {GlassCollector[]} collectors @param {StreamShape} shape @param {string} label
 * @returns {GlassRun}
 */
function summarise(collectors, shape, label, sockets = []) {
  collectors.forEach((collector, i) => {
    const socket = sockets[i];
    const seqs =
      socket && "gaps" in socket ? ` (seq gaps ${socket.gaps}, duplicates ${socket.duplicates})` : "";
    collector.check(shape.n, `${label} device ${i}${seqs}`);
  });
  const firstEmission = Math.min(...collectors.map((c) => c.stamps[0] ?? Number.POSITIVE_INFINITY));
  const lastReceipt = Math.max(...collectors.map((c) => c.lastReceivedAt));
  const zero = /** @type {GlassCollector} */ (collectors[0]);
  let storedAfterPause = null;
  if (shape.pauseAt !== undefined && shape.pauseAt > 0) {
    const lastBefore = /** @type {number} */ (zero.stamps[shape.pauseAt - 1]);
    const end = shape.pauseAt * STAMP_CHARS;
    const covering = zero.stored.find((s) => s.end >= end);
    storedAfterPause = covering ? covering.at - lastBefore : null;
  }
  return {
    latencies: collectors.flatMap((c) => c.latencies),
    first: collectors.map((c) => /** @type {number} */ (c.latencies[0])),
    windowMs: Math.max(lastReceipt - firstEmission, 0.001),
    delivered: collectors.reduce((sum, c) => sum + c.stamps.length, 0),
    afterWrite: collectors.flatMap((c) => c.afterWrite),
    storedAfterPause,
  };
}

/**
 * Runs one stream: `trigger` starts it; resolves when every device saw it end.
 * @param {GlassCollector[]} collectors @param {StreamShape} shape @param {string} label
 * @param {() => Promise<unknown>} trigger @param {(collector: GlassCollector) => Promise<void>} ended
 */
async function runStream(collectors, shape, label, trigger, ended, sockets = []) {
  for (const collector of collectors) collector.reset();
  const all = Promise.all(collectors.map(ended));
  all.catch(() => {}); // awaited below
  await trigger();
  await withTimeout(all, timeoutOf(shape), `${label}: not every device saw the stream end`);
  return summarise(collectors, shape, label, sockets);
}

/**
 * Parley: one session on the real Anthropic SDK (pointed at the local API), N devices.
 * @param {import("./targets.mjs").ParleyTarget} parley @param {number} devices
 * @returns {Promise<GlassSide>}
 */
export async function parleyGlass(parley, devices) {
  const session = await parley.createSession({});
  const collectors = Array.from({ length: devices }, () => new GlassCollector());
  const sockets = await mapLimit(collectors, CONNECT_CONCURRENCY, (collector, i) =>
    Device.connect(parley.socketUrl(session, { device: `glass-${i}` }), {
      onDelta: (delta, at) => {
        if (delta.toolCallId) return;
        const latencies = collector.add(delta.offset, delta.text, at);
        if (collector.wroteSinceDelta) collector.afterWrite.push(...latencies);
        collector.wroteSinceDelta = false;
      },
      onEvent: (event, at) => {
        if (event.type === "done") collector.dones += 1;
        if (event.type !== "text_delta") return;
        collector.add(event.data.offset ?? null, event.data.text, at);
        collector.stored.push({ end: (event.data.offset ?? 0) + event.data.text.length, at });
        collector.wroteSinceDelta = true;
      },
    }),
  );
  const sender = /** @type {Device} */ (sockets[0]);
  return {
    name: "parley",
    run: async (shape) => {
      const target = (/** @type {GlassCollector} */ c) => c.dones + 1;
      const goals = collectors.map(target);
      return runStream(
        collectors,
        shape,
        "Parley",
        async () => {
          const ack = await sender.request({ type: "send_message", text: promptOf(shape) }, 10_000);
          if (!ack.ok) throw new Error(`Parley refused the message: ${JSON.stringify(ack.error)}`);
        },
        (collector) => {
          const i = collectors.indexOf(collector);
          return /** @type {Device} */ (sockets[i]).until(() => collector.dones >= (goals[i] ?? 0));
        },
        sockets,
      );
    },
    rows: async () => (await parley.stats(session)).rowsWritten,
    close: () => closeAll(sockets),
  };
}

/**
 * The bare baseline: a Durable Object that calls the local API with `fetch` and broadcasts each delta.
 * @param {import("./targets.mjs").BareTarget} bare @param {number} devices @param {string} modelUrl
 * @returns {Promise<GlassSide>}
 */
export async function bareGlass(bare, devices, modelUrl) {
  const name = uniqueName("glass");
  const collectors = Array.from({ length: devices }, () => new GlassCollector());
  const sockets = await mapLimit(collectors, CONNECT_CONCURRENCY, (collector) =>
    Device.connect(bare.socketUrl(name), {
      onEvent: (event, at) => {
        if (event.type === "text_delta") collector.add(null, event.data.text, at);
        else if (event.type === "done") collector.dones += 1;
      },
    }),
  );
  return {
    name: "bare",
    run: async (shape) => {
      const goals = collectors.map((c) => c.dones + 1);
      const query = new URLSearchParams({ api: modelUrl, prompt: promptOf(shape) });
      return runStream(
        collectors,
        shape,
        "bare",
        () =>
          requestJson(`${bare.baseUrl}/s/${name}/model?${query}`, {
            method: "POST",
            timeoutMs: timeoutOf(shape),
          }),
        (collector) => {
          const i = collectors.indexOf(collector);
          return /** @type {Device} */ (sockets[i]).until(() => collector.dones >= (goals[i] ?? 0));
        },
        sockets,
      );
    },
    close: () => closeAll(sockets),
  };
}

/** A socket speaking the agents SDK's chat protocol; counts finished responses. */
class AgentsDevice {
  /** @type {Set<() => void>} */ #waiters = new Set();
  /** @param {WebSocket} socket @param {GlassCollector} collector */
  constructor(socket, collector) {
    this.socket = socket;
    socket.on("message", (data) => {
      const at = now();
      const frame = JSON.parse(String(data));
      if (frame.type !== "cf_agent_use_chat_response") return;
      if (frame.done) collector.dones += 1;
      else if (frame.body) {
        const part = JSON.parse(frame.body);
        if (part.type === "text-delta") collector.add(null, part.delta, at);
      }
      for (const wake of this.#waiters) wake();
    });
  }
  /** @param {() => boolean} test */
  async until(test) {
    while (!test()) {
      await new Promise((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          resolve(undefined);
        };
        this.#waiters.add(wake);
      });
    }
  }
}

let agentsRequest = 0;

/**
 * The peer: Cloudflare's AIChatAgent (bench/peers), its model the same local API.
 * @param {string} baseUrl @param {number} devices
 * @returns {Promise<GlassSide>}
 */
export async function agentsGlass(baseUrl, devices) {
  const name = uniqueName("glass");
  const collectors = Array.from({ length: devices }, () => new GlassCollector());
  const url = `${baseUrl.replace(/^http/, "ws")}/agents/bench-chat/${name}`;
  const clients = await mapLimit(collectors, CONNECT_CONCURRENCY, async (collector) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    await withTimeout(
      new Promise((resolve, reject) => {
        socket.once("open", resolve);
        socket.once("error", reject);
      }),
      15_000,
      "agents peer socket",
    );
    return new AgentsDevice(socket, collector);
  });
  const sender = /** @type {AgentsDevice} */ (clients[0]);
  return {
    name: "agents",
    run: async (shape) => {
      const goals = collectors.map((c) => c.dones + 1);
      const id = `bench-${++agentsRequest}`;
      const body = JSON.stringify({
        messages: [{ id: `u-${id}`, role: "user", parts: [{ type: "text", text: promptOf(shape) }] }],
      });
      return runStream(
        collectors,
        shape,
        "agents",
        async () => {
          sender.socket.send(
            JSON.stringify({ type: "cf_agent_use_chat_request", id, init: { method: "POST", body } }),
          );
        },
        (collector) => {
          const i = collectors.indexOf(collector);
          return /** @type {AgentsDevice} */ (clients[i]).until(() => collector.dones >= (goals[i] ?? 0));
        },
      );
    },
    close: async () => {
      for (const client of clients) client.socket.terminate();
    },
  };
}
