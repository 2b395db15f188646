// Reads the garbage collector's pauses out of a Perfetto trace that workerd wrote
// (`workerd serve --perfetto-trace=FILE=v8.gc,…`): every pause of the JavaScript thread, what kind
// of collection it was and how long its phases took. Only the few parts of the trace format the
// runtime's track events use are read: packets, interned event names, the incremental clock.

import { chmod, readdir, readFile, watch, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";

/** The trace categories that hold the collector's pauses and their phases. */
export const GC_CATEGORIES = "v8.gc,disabled-by-default-v8.gc,cppgc,disabled-by-default-cppgc";

/**
 * Writes, into `dir`, a stand-in for the workerd binary that runs the real one with a trace of the
 * collector into `dir` (one file per process). Miniflare runs whatever MINIFLARE_WORKERD_PATH names,
 * and wrangler offers no other way to pass workerd an option.
 * @param {string} dir
 * @returns {Promise<string>} the path to put in MINIFLARE_WORKERD_PATH
 */
export async function tracedWorkerd(dir) {
  const workerd = createRequire(import.meta.url)("workerd").default;
  const wrapper = join(dir, "workerd-traced");
  const trace = `--perfetto-trace=${dir}/trace-$$.pftrace=${GC_CATEGORIES}`;
  await writeFile(
    wrapper,
    `#!/bin/sh\nif [ "$1" = serve ]; then shift; exec "${workerd}" serve "${trace}" "$@"; fi\nexec "${workerd}" "$@"\n`,
  );
  await chmod(wrapper, 0o755);
  return wrapper;
}

/**
 * Resolves once every trace in `dir` has been written twice since the call. workerd writes its
 * trace every few seconds and not at all when it is stopped, so what happened before this call is
 * on disk only after a write that began after it: the second write is surely one.
 * @param {string} dir
 * @param {number} [timeoutMs]
 */
export async function traceWritten(dir, timeoutMs = 30_000) {
  /** Per trace file, when each write began: events closer than this are one write. */
  const writes = new Map();
  const ONE_WRITE_MS = 1_000;
  const files = (await readdir(dir)).filter((name) => name.endsWith(".pftrace"));
  if (files.length === 0)
    throw new Error(`no workerd trace in ${dir}: was it started through tracedWorkerd?`);
  try {
    for await (const { filename } of watch(dir, { signal: AbortSignal.timeout(timeoutMs) })) {
      if (!filename?.endsWith(".pftrace")) continue;
      const at = performance.now();
      const began = writes.get(filename) ?? [];
      if (began.length === 0 || at - /** @type {number} */ (began.at(-1)) > ONE_WRITE_MS) began.push(at);
      writes.set(filename, began);
      if (files.every((name) => (writes.get(name)?.length ?? 0) >= 2)) return;
    }
  } catch (error) {
    if (error instanceof Error && error.name === "AbortError")
      throw new Error(`workerd did not write its traces twice in ${timeoutMs} ms`);
    throw error;
  }
}

/**
 * The pauses in the traces `tracedWorkerd`'s processes left in `dir` (see `traceWritten`). wrangler
 * starts more than one workerd; the Worker's own is the one whose trace has most pauses.
 * @param {string} dir
 * @returns {Promise<GcPause[]>}
 */
export async function readGcPauses(dir) {
  const files = (await readdir(dir)).filter((name) => name.endsWith(".pftrace"));
  const traces = await Promise.all(
    files.map(async (name) => gcPauses(traceSlices(await readFile(join(dir, name))))),
  );
  return traces.sort((a, b) => b.length - a.length)[0] ?? [];
}

// Field numbers of perfetto's trace protos (protos/perfetto/trace/…).
const TRACE_PACKET = 1;
const PACKET = {
  clockSnapshot: 6,
  timestamp: 8,
  sequenceId: 10,
  trackEvent: 11,
  internedData: 12,
  sequenceFlags: 13,
  timestampClockId: 58,
  defaults: 59,
};
const CLOCK_SNAPSHOT_CLOCK = 1;
const CLOCK = { id: 1, timestamp: 2 };
const INTERNED_EVENT_NAMES = 2;
const EVENT_NAME = { iid: 1, name: 2 };
const TRACK_EVENT = { type: 9, nameIid: 10, trackUuid: 11, name: 23 };
const SLICE_BEGIN = 1;
const SLICE_END = 2;
const SEQ_INCREMENTAL_STATE_CLEARED = 1;
/** Clock ids from 64 up are a sequence's own incremental clocks: each timestamp is a delta. */
const FIRST_SEQUENCE_CLOCK = 64;
const BUILTIN_MONOTONIC = 3;
/** The clock perfetto stamps track events with unless a sequence says otherwise. */
const BUILTIN_BOOTTIME = 6;

/**
 * The fields of one protobuf message, in order. Length-delimited values stay bytes; varints become
 * numbers (exact below 2^53, which covers nanosecond clocks for a hundred days).
 * @param {Uint8Array} bytes
 * @returns {Generator<{ field: number, value: number | Uint8Array }>}
 */
export function* protoFields(bytes) {
  let at = 0;
  const varint = () => {
    let result = 0;
    let scale = 1;
    for (;;) {
      if (at >= bytes.length) throw new Error("trace: a varint runs past the end of its message");
      const byte = /** @type {number} */ (bytes[at++]);
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) return result;
      scale *= 128;
    }
  };
  while (at < bytes.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) yield { field, value: varint() };
    else if (wire === 2) {
      const length = varint();
      if (at + length > bytes.length) throw new Error("trace: a field runs past the end of its message");
      yield { field, value: bytes.subarray(at, at + length) };
      at += length;
    } else if (wire === 1 || wire === 5)
      at += wire === 1 ? 8 : 4; // fixed64/fixed32: nothing read here
    else throw new Error(`trace: wire type ${wire} is not one perfetto writes`);
  }
}

/** @param {Uint8Array} bytes @returns {Map<number, Array<number | Uint8Array>>} */
function fieldMap(bytes) {
  const map = new Map();
  for (const { field, value } of protoFields(bytes)) {
    const list = map.get(field);
    if (list) list.push(value);
    else map.set(field, [value]);
  }
  return map;
}

/**
 * @typedef {{ name: string, startNs: number, ms: number, sequence: number }} Slice
 *   one begin–end pair of a track event; `startNs` on CLOCK_MONOTONIC (process.hrtime's clock)
 */

/**
 * Every complete slice in a trace, in start order.
 * @param {Uint8Array} trace the file workerd wrote
 * @returns {Slice[]}
 */
export function traceSlices(trace) {
  /** Per sequence: interned names, whether its timestamps are deltas, and the running clock. */
  const sequences = new Map();
  const sequenceOf = (id) => {
    let state = sequences.get(id);
    if (!state) {
      state = { id, names: new Map(), incremental: false, clock: 0, open: new Map() };
      sequences.set(id, state);
    }
    return state;
  };
  /** BOOTTIME (the trace's clock) minus MONOTONIC, from the first snapshot that has both. */
  let toMonotonic = null;
  /** @type {Slice[]} */
  const slices = [];
  for (const { field, value } of protoFields(trace)) {
    if (field !== TRACE_PACKET || !(value instanceof Uint8Array)) continue;
    const packet = fieldMap(value);
    const state = sequenceOf(Number(packet.get(PACKET.sequenceId)?.[0] ?? 0));
    if (Number(packet.get(PACKET.sequenceFlags)?.[0] ?? 0) & SEQ_INCREMENTAL_STATE_CLEARED)
      state.names.clear();
    const defaults = packet.get(PACKET.defaults)?.[0];
    if (defaults instanceof Uint8Array) {
      const clockId = fieldMap(defaults).get(PACKET.timestampClockId)?.[0];
      state.incremental = typeof clockId === "number" && clockId >= FIRST_SEQUENCE_CLOCK;
    }
    const snapshot = packet.get(PACKET.clockSnapshot)?.[0];
    if (snapshot instanceof Uint8Array) {
      const clocks = new Map();
      for (const clock of fieldMap(snapshot).get(CLOCK_SNAPSHOT_CLOCK) ?? []) {
        const fields = fieldMap(/** @type {Uint8Array} */ (clock));
        clocks.set(fields.get(CLOCK.id)?.[0], Number(fields.get(CLOCK.timestamp)?.[0] ?? 0));
      }
      for (const [id, at] of clocks) if (id >= FIRST_SEQUENCE_CLOCK) state.clock = at;
      if (toMonotonic === null && clocks.has(BUILTIN_BOOTTIME) && clocks.has(BUILTIN_MONOTONIC))
        toMonotonic = clocks.get(BUILTIN_BOOTTIME) - clocks.get(BUILTIN_MONOTONIC);
    }
    const interned = packet.get(PACKET.internedData)?.[0];
    if (interned instanceof Uint8Array) {
      for (const entry of fieldMap(interned).get(INTERNED_EVENT_NAMES) ?? []) {
        const fields = fieldMap(/** @type {Uint8Array} */ (entry));
        const name = fields.get(EVENT_NAME.name)?.[0];
        state.names.set(
          fields.get(EVENT_NAME.iid)?.[0],
          name instanceof Uint8Array ? new TextDecoder().decode(name) : "",
        );
      }
    }
    const stamp = packet.get(PACKET.timestamp)?.[0];
    if (typeof stamp !== "number") continue;
    const ownClock = packet.get(PACKET.timestampClockId)?.[0];
    const delta = typeof ownClock === "number" ? ownClock >= FIRST_SEQUENCE_CLOCK : state.incremental;
    if (delta) state.clock += stamp;
    const at = delta ? state.clock : stamp;
    const event = packet.get(PACKET.trackEvent)?.[0];
    if (!(event instanceof Uint8Array)) continue;
    const fields = fieldMap(event);
    const type = fields.get(TRACK_EVENT.type)?.[0];
    const track = Number(fields.get(TRACK_EVENT.trackUuid)?.[0] ?? 0);
    const open = state.open.get(track) ?? [];
    state.open.set(track, open);
    if (type === SLICE_BEGIN) {
      const literal = fields.get(TRACK_EVENT.name)?.[0];
      const name =
        literal instanceof Uint8Array
          ? new TextDecoder().decode(literal)
          : (state.names.get(fields.get(TRACK_EVENT.nameIid)?.[0]) ?? "?");
      open.push({ name, at });
    } else if (type === SLICE_END) {
      const begun = open.pop();
      if (begun)
        slices.push({
          name: begun.name,
          startNs: begun.at,
          ms: (at - begun.at) / 1e6,
          sequence: state.id,
        });
    }
  }
  const shift = toMonotonic ?? 0;
  for (const slice of slices) slice.startNs -= shift;
  return slices.sort((a, b) => a.startNs - b.startNs);
}

/**
 * @typedef {object} GcPause
 * @property {"mark-compact" | "scavenge" | "other"} kind
 * @property {number} startNs   CLOCK_MONOTONIC
 * @property {number} ms        how long the JavaScript thread stood still
 * @property {Record<string, number>} phases  ms in V8's marking and clearing, the C++ heap's weak
 *   processing and its sweep finished in the pause (the runtime's own objects), and what is left
 */

/** The phases a pause is split into, by the slice that measures each. */
const PHASES = {
  mark: "V8.GC_MC_MARK",
  // Clearing what marking left unreached that V8 keeps tables of: weak references, the string
  // table, the tables of functions' code entries.
  clear: "V8.GC_MC_CLEAR",
  "c++ weak": "CppGC.AtomicWeak",
  "c++ sweep": "CppGC.SweepFinish",
  scavenge: "V8.GC_SCAVENGER",
};

/**
 * The pauses in a trace's slices: V8's "ObservablePause" slices, each with its kind and phases.
 * @param {Slice[]} slices
 * @returns {GcPause[]}
 */
export function gcPauses(slices) {
  return slices
    .filter((slice) => slice.name === "ObservablePause")
    .map((pause) => {
      const end = pause.startNs + pause.ms * 1e6;
      const inside = slices.filter(
        (s) => s !== pause && s.sequence === pause.sequence && s.startNs >= pause.startNs && s.startNs < end,
      );
      const names = new Set(inside.map((s) => s.name));
      const kind = names.has("V8.GC_MARK_COMPACTOR")
        ? "mark-compact"
        : names.has("V8.GC_SCAVENGER")
          ? "scavenge"
          : "other";
      /** @type {Record<string, number>} */
      const phases = {};
      let accounted = 0;
      for (const [phase, name] of Object.entries(PHASES)) {
        const ms = inside
          .filter((s) => s.name === name)
          .reduce((sum, s) => sum + Math.min(s.ms, pause.ms), 0);
        if (ms > 0) {
          phases[phase] = ms;
          accounted += ms;
        }
      }
      phases.rest = Math.max(0, pause.ms - accounted);
      return { kind, startNs: pause.startNs, ms: pause.ms, phases };
    });
}
