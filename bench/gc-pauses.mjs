// What stops a model stream on its way to the glass: one Worker (Parley, or the bare baseline with
// an optional ballast of live objects) under `wrangler dev`, workerd writing a Perfetto trace of its
// garbage collector, and N streams to D devices. For each stream: p50/p99/max model → glass, its
// stalls (deltas whose slowest device waited over 10 ms, in a row) and the collector's pauses in it;
// then every pause by kind, with a mark-compact's phases. Not part of `npm run bench`.
//   node bench/gc-pauses.mjs [--side parley|bare] [--ballast 30000] [--streams 6] [--devices 10]
//     [--deltas 2000] [--pace 2.5] [--ref COMMIT] [--snapshot FILE] [--split] [--compat-flag NAME]
// `--split` runs Parley as two Workers, the session object alone in one (bench/lib/split-parley.mjs),
// and reads the session's isolate; the pauses are still every isolate's.
// The isolate's live heap (after a full collection) is read once, after the first two streams;
// `--snapshot` also writes that heap snapshot (open it in Chrome's DevTools, Memory tab).
// `--compat-flag` (repeatable) runs the Worker with more compatibility flags than wrangler.toml names,
// for what the runtime would do otherwise (`new_module_registry`: only the modules that run are read).
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { stateGatewayToken, stateSessionSecret } from "../scripts/dev-secret.mjs";
import { startWranglerDev } from "../scripts/wrangler-dev.mjs";
import { bareGlass, parleyGlass } from "./lib/glass-sides.mjs";
import { inspector, inspectorAt } from "./lib/inspector.mjs";
import { startMockModelThread } from "./lib/mock-model.mjs";
import { readGcPauses, tracedWorkerd, traceWritten } from "./lib/perfetto-gc.mjs";
import { runtimeInspectorTarget, SESSION_WORKER, snapshotSplitParley } from "./lib/split-parley.mjs";
import { percentile } from "./lib/stats.mjs";
import { BareTarget, ParleyTarget } from "./lib/targets.mjs";
import { snapshotBaseline, snapshotParley, withCompatFlags } from "./lib/worker-snapshot.mjs";

const { values } = parseArgs({
  options: {
    side: { type: "string", default: "parley" },
    ballast: { type: "string", default: "0" },
    streams: { type: "string", default: "6" },
    devices: { type: "string", default: "10" },
    deltas: { type: "string", default: "2000" },
    pace: { type: "string", default: "2.5" },
    ref: { type: "string" },
    snapshot: { type: "string" },
    split: { type: "boolean", default: false },
    "compat-flag": { type: "string", multiple: true, default: [] },
  },
});
if (values.side !== "parley" && values.side !== "bare") throw new Error("--side is parley or bare");
if (values.split && (values.side !== "parley" || values.ref))
  throw new Error("--split is Parley's working tree");
const ballast = Number(values.ballast);
if (ballast > 0 && values.side !== "bare") throw new Error("--ballast goes into the bare baseline only");
const shape = { n: Number(values.deltas), pace: Number(values.pace) };
/** A delta whose slowest device waited longer than this is part of a stall. */
const STALL_MS = 10;

const work = await mkdtemp(join(tmpdir(), "parley-gc-"));
process.env.MINIFLARE_WORKERD_PATH = await tracedWorkerd(work);

const model = await startMockModelThread();
const vars = {
  ALLOW_SCRIPTED_SESSIONS: "true",
  ALLOW_OPEN_GATEWAY: "true",
  ANTHROPIC_API_KEY: "bench",
  ANTHROPIC_BASE_URL: model.baseUrl,
  SOCKET_COMMANDS_PER_SECOND: "1000000",
  SOCKET_COMMAND_BURST: "1000000",
};
const state = join(work, "state");
let config;
if (values.split) {
  const secrets = { SESSION_SECRET: stateSessionSecret(state), GATEWAY_TOKEN: stateGatewayToken(state) };
  config = await snapshotSplitParley(work, { ...vars, ...secrets });
} else if (values.side === "parley") config = await snapshotParley(work, work, values.ref);
else {
  config = await snapshotBaseline(work);
  if (ballast > 0) {
    // The same Worker holding `ballast` more small objects alive, each with a closure: a larger
    // live heap and nothing else, to see what the heap's size alone does to a collection.
    const source = join(work, "baseline/worker.mjs");
    await writeFile(
      source,
      `${await readFile(source, "utf8")}\nglobalThis.ballast = Array.from({ length: ${ballast} }, (_, i) => ({ i, f: () => i, s: "x" + i, o: { a: [i, i + 1] } }));\n`,
    );
  }
}
if (values["compat-flag"].length > 0) {
  if (typeof config !== "string") throw new Error("--compat-flag runs one Worker, not --split");
  await writeFile(config, withCompatFlags(await readFile(config, "utf8"), values["compat-flag"]));
}
const server = await startWranglerDev({
  label: values.side,
  config,
  persistTo: state,
  logDir: work,
  vars,
});
const devices = Number(values.devices);
const side =
  values.side === "parley"
    ? await parleyGlass(new ParleyTarget(server.baseUrl, server.gatewayToken), devices)
    : await bareGlass(new BareTarget(server.baseUrl), devices, model.baseUrl);
await side.run(shape); // warm-up, not reported
const streams = [];
let liveHeap = null;
for (let i = 0; i < Number(values.streams); i++) {
  // Two streams in (the warm-up and the first), what stays alive after a full collection: the live
  // graph every later mark-compact has to mark.
  if (i === 1) {
    const isolate = values.split
      ? inspectorAt(await runtimeInspectorTarget(SESSION_WORKER))
      : inspector(server.inspectorPort);
    liveHeap = await readLiveHeap(isolate, values.snapshot);
  }
  const startNs = Number(process.hrtime.bigint());
  const run = await side.run(shape);
  const endNs = Number(process.hrtime.bigint());
  // The slowest device's wait for each delta, in stream order.
  const slowest = new Array(shape.n).fill(0);
  run.latencies.forEach((latency, j) => {
    slowest[j % shape.n] = Math.max(slowest[j % shape.n], latency);
  });
  const stalls = [];
  for (let j = 0; j < shape.n; j++) {
    if (slowest[j] <= STALL_MS) continue;
    let end = j;
    while (end < shape.n && slowest[end] > STALL_MS) end++;
    stalls.push({ at: j, deltas: end - j, ms: Math.max(...slowest.slice(j, end)) });
    j = end;
  }
  streams.push({ startNs, endNs, run, stalls });
}
await traceWritten(work);
await side.close();
await server.stop();
await model.close?.();

const pauses = await readGcPauses(work);
if (pauses.length === 0) throw new Error(`no collector pauses in workerd's traces (in ${work})`);

const ms = (x) => x.toFixed(1);
if (liveHeap) {
  console.log(
    `live heap after two streams: ${(liveHeap.usedSize / 2 ** 20).toFixed(2)} MiB (of ${(liveHeap.totalSize / 2 ** 20).toFixed(2)} MiB)\n`,
  );
}
console.log(
  `${values.side}${ballast ? ` + ${ballast} live objects` : ""}: ${shape.n} deltas ${shape.pace} ms apart, ${devices} devices\n`,
);
console.log(
  "| stream | p50 | p99 | max | stalls over 10 ms (delta index+length: worst ms) | pauses in it (kind ms) |",
);
console.log("|---:|---:|---:|---:|---|---|");
streams.forEach((stream, i) => {
  const inside = pauses.filter((p) => p.startNs >= stream.startNs && p.startNs <= stream.endNs && p.ms >= 5);
  const stalls = stream.stalls.map((s) => `${s.at}+${s.deltas}: ${ms(s.ms)}`).join(", ");
  const kinds = inside.map((p) => `${p.kind} ${ms(p.ms)}`).join(", ");
  const l = stream.run.latencies;
  console.log(
    `| ${i + 1} | ${ms(percentile(l, 50))} | ${ms(percentile(l, 99))} | ${ms(Math.max(...l))} | ${stalls} | ${kinds} |`,
  );
});
console.log("\n| kind | pauses | median ms | max ms | median phases of the longest half (ms) |");
console.log("|---|---:|---:|---:|---|");
for (const kind of ["scavenge", "mark-compact", "other"]) {
  const of = pauses.filter((p) => p.kind === kind).sort((a, b) => a.ms - b.ms);
  if (of.length === 0) continue;
  const longest = of.slice(Math.floor(of.length / 2));
  const phases = [...new Set(longest.flatMap((p) => Object.keys(p.phases)))]
    .map(
      (phase) =>
        `${phase} ${ms(
          percentile(
            longest.map((p) => p.phases[phase] ?? 0),
            50,
          ),
        )}`,
    )
    .join(", ");
  console.log(
    `| ${kind} | ${of.length} | ${ms(
      percentile(
        of.map((p) => p.ms),
        50,
      ),
    )} | ${ms(of.at(-1)?.ms ?? 0)} | ${phases} |`,
  );
}
process.exit(0);

/** An isolate's heap after a full collection, through workerd's inspector. */
async function readLiveHeap(connecting, snapshotFile) {
  const { call, ws } = await connecting;
  const chunks = [];
  ws.addEventListener("message", (message) => {
    const data = JSON.parse(message.data);
    if (data.method === "HeapProfiler.addHeapSnapshotChunk") chunks.push(data.params.chunk);
  });
  const answer = async (method) => {
    const reply = await Promise.race([
      call(method),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`${method}: no answer in 60 s`)), 60_000)),
    ]);
    if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
    return reply.result;
  };
  // workerd's inspector does not answer `HeapProfiler.collectGarbage`; a heap snapshot collects
  // everything first (its chunks, sent as notifications, are not read).
  await answer("HeapProfiler.enable");
  await answer("HeapProfiler.takeHeapSnapshot");
  const usage = await answer("Runtime.getHeapUsage");
  ws.close();
  if (snapshotFile) await writeFile(snapshotFile, chunks.join(""));
  return usage;
}
