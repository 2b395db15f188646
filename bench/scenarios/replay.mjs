// Scenario 3, replay: a device reconnects with a cursor M events behind; measured from opening the
// socket to holding the newest event, with the frames it took, and checked to start exactly at
// cursor + 1 with no gaps or duplicates. The baseline replays the same number of events of the
// same average size from memory.
import { now, withTimeout } from "../lib/clock.mjs";
import { Device } from "../lib/device.mjs";
import { alternate, figure } from "../lib/figures.mjs";
import { textReply } from "../lib/script.mjs";
import { SessionDevice } from "../lib/session-driver.mjs";
import { uniqueName } from "../lib/targets.mjs";

/** @typedef {{ missed: number[], repeats: number }} ReplayOptions */

const FILL_WINDOW = 64;
const FILL_TIMEOUT_MS = 60_000;
/** Parley's request body cap (src/protocol/limits.ts MAX_INPUT_BYTES), less room for the envelope. */
const SCRIPT_BYTES = 64 * 1024 - 512;
/** Model calls per turn stay below Parley's default iteration cap of 25. */
const CALLS_PER_TURN = 24;
/** Content blocks per scripted reply (the scripted model's own cap). */
const BLOCKS_PER_REPLY = 64;

/**
 * The densest script that fits one request body: replies that each make 64 tool calls (each call
 * is stored as tool_call_start, tool_call_delta, tool_call_end and tool_result), then a text reply.
 * The one-letter tool does not exist, so each call ends in an "unknown tool" result: the shortest
 * script per stored event.
 */
function toolCallScript() {
  const call = { type: "tool_use", name: "t", input: {} };
  const reply = { content: Array.from({ length: BLOCKS_PER_REPLY }, () => call) };
  const last = textReply("Done.");
  const room = SCRIPT_BYTES - JSON.stringify({ permissionMode: "default", script: [last] }).length;
  const replies = Math.min(CALLS_PER_TURN - 1, Math.floor(room / (JSON.stringify(reply).length + 1)));
  return [...Array.from({ length: replies }, () => reply), last];
}

/**
 * Gives a Parley session at least `count` stored events: first a turn of many tool calls (fast:
 * one model stream writes many events per commit), then permission mode changes over a socket,
 * each of which is stored and broadcast as one session_status event.
 * @param {import("../lib/targets.mjs").ParleyTarget} parley
 * @param {number} count
 */
async function fillParley(parley, count) {
  const session = await parley.createSession({ script: toolCallScript() });
  let bytes = 0;
  let events = 0;
  const filler = await SessionDevice.open(parley, session, { device: "filler" });
  filler.listener = (event) => {
    events += 1;
    bytes += JSON.stringify(event).length;
  };
  const device = filler.device;
  try {
    const begun = Date.now();
    await filler.converse("Call the tool many times.", FILL_TIMEOUT_MS);
    const streamed = device.lastSeq;
    const streamedMs = Date.now() - begun;
    const deadline = Date.now() + FILL_TIMEOUT_MS;
    const modes = ["acceptEdits", "default"];
    let sent = 0;
    let inFlight = 0;
    // One socket keeps the commands in order, so every one of them flips the mode.
    const lane = async () => {
      while (device.lastSeq + inFlight < count) {
        if (Date.now() > deadline) throw new Error(`filling ${count} events took over ${FILL_TIMEOUT_MS} ms`);
        inFlight += 1;
        const ack = await device.request({ type: "set_permission_mode", mode: modes[sent++ % 2] });
        inFlight -= 1;
        if (!ack.ok) throw new Error(`set_permission_mode refused: ${JSON.stringify(ack.error)}`);
      }
    };
    await Promise.all(Array.from({ length: FILL_WINDOW }, lane));
    if (device.lastSeq < count) throw new Error(`filled ${device.lastSeq} events, wanted ${count}`);
    const detail = `${streamed} events from a tool-calling turn in ${streamedMs} ms, ${device.lastSeq - streamed} from mode changes in ${Date.now() - begun - streamedMs} ms`;
    return { session, lastSeq: device.lastSeq, averageBytes: bytes / events, detail };
  } finally {
    await filler.close();
  }
}

/**
 * @param {string} url
 * @param {number} after
 * @param {number} lastSeq
 * @param {string} label
 */
async function replay(url, after, lastSeq, label) {
  const start = now();
  const device = await Device.connect(url, { after });
  try {
    await withTimeout(
      device.until(() => device.lastSeq >= lastSeq),
      30_000,
      `${label}: replay incomplete`,
    );
    const caughtUp = now() - start;
    const exact =
      device.firstSeq === after + 1 &&
      device.gaps === 0 &&
      device.duplicates === 0 &&
      device.lastSeq === lastSeq;
    if (!exact) {
      throw new Error(
        `${label}: replay after ${after} started at ${device.firstSeq}, ended at ${device.lastSeq} ` +
          `(wanted ${after + 1}…${lastSeq}), ${device.gaps} gaps, ${device.duplicates} duplicates`,
      );
    }
    return { ms: caughtUp, frames: device.frames, exact: 1 };
  } finally {
    await device.close();
  }
}

/**
 * @typedef {object} ReplayFixture
 * @property {import("../lib/targets.mjs").ParleySession} session  a Parley session holding the events
 * @property {string} bareName  a bare object holding as many events of the same average size
 * @property {number} chars     text characters per baseline event (to fill it again)
 * @property {number} lastSeq
 */

/**
 * Fills one Parley session and one bare object with the most events any replay needs. Not timed,
 * so it may run alongside other preparation.
 * @param {{ parley: import("../lib/targets.mjs").ParleyTarget, bare: import("../lib/targets.mjs").BareTarget, options: ReplayOptions, log: (line: string) => void }} context
 * @returns {Promise<ReplayFixture>}
 */
export async function prepareReplay({ parley, bare, options, log }) {
  const most = Math.max(...options.missed);
  log(`replay: filling a session with ${most} events`);
  const filled = await fillParley(parley, most);
  // The bare object's events carry text sized so that they match Parley's average event size.
  const bareName = uniqueName("replay");
  const sample = {
    seq: filled.lastSeq,
    at: Date.now(),
    type: "text_delta",
    data: { turnId: "bare", index: 0, text: "" },
  };
  const chars = Math.max(1, Math.round(filled.averageBytes - JSON.stringify(sample).length));
  const bareFill = await bare.burst(bareName, { n: filled.lastSeq, paceMs: 0, chars });
  if (bareFill.lastSeq !== filled.lastSeq) {
    throw new Error(`baseline filled ${bareFill.lastSeq} events, wanted ${filled.lastSeq}`);
  }
  log(
    `replay: ${filled.lastSeq} events of ~${Math.round(filled.averageBytes)} bytes each (${filled.detail})`,
  );
  return { session: filled.session, bareName, lastSeq: filled.lastSeq, chars };
}

/**
 * @param {{ parley: import("../lib/targets.mjs").ParleyTarget, bare: import("../lib/targets.mjs").BareTarget, options: ReplayOptions, fixture: ReplayFixture }} context
 * @returns {Promise<import("../lib/figures.mjs").Figure[]>}
 */
export async function runReplay({ parley, bare, options, fixture }) {
  const scenario = "3. Replay";
  const { session, bareName, lastSeq, chars } = fixture;
  // The baseline keeps events in memory only (its counter survives): if it hibernated while the
  // rest was prepared, it is filled again from seq 1 (untimed) so both replay the same history.
  const held = await bare.burst(bareName, { n: 0, paceMs: 0, chars });
  if (held.lastSeq !== lastSeq || held.kept < lastSeq) {
    const refill = await bare.burst(bareName, { n: lastSeq, paceMs: 0, chars, restart: true });
    if (refill.lastSeq !== lastSeq || refill.kept !== lastSeq)
      throw new Error(`baseline refilled ${refill.kept} events up to ${refill.lastSeq}, wanted ${lastSeq}`);
  }
  /** @type {import("../lib/figures.mjs").Figure[]} */
  const figures = [];
  for (const missed of options.missed) {
    const after = lastSeq - missed;
    const runs = await alternate(
      options.repeats,
      () => replay(bare.socketUrl(bareName, { after }), after, lastSeq, "bare replay"),
      () => replay(parley.socketUrl(session, { after, device: "replayer" }), after, lastSeq, "Parley replay"),
    );
    const what = `${missed.toLocaleString("en-US")} missed events`;
    figures.push(
      figure({
        scenario,
        label: `${what}: reconnect until caught up`,
        unit: "ms",
        parley: runs.parley.map((run) => run.ms),
        bare: runs.bare.map((run) => run.ms),
        target: missed === 10_000 ? { below: 100 } : null,
      }),
      figure({
        scenario,
        label: `${what}: frames received (hello + batches)`,
        unit: "frames",
        parley: runs.parley.map((run) => run.frames),
        bare: runs.bare.map((run) => run.frames),
      }),
      figure({
        scenario,
        label: `${what}: replay starts at cursor + 1, no gaps or duplicates`,
        unit: "yes/no",
        parley: runs.parley.map((run) => run.exact),
        target: { equals: 1 },
        aggregate: "worst",
        better: "higher",
      }),
    );
  }
  return figures;
}
