// Profiles Parley's Durable Object while S paused sessions are answered at once: starts the frozen
// Worker under `wrangler dev` with an inspector, takes a V8 CPU profile over the answers, and prints
// the functions with the most self time and the heaviest call paths. Not part of `npm run bench`.
//   node bench/profile-wake.mjs [--sessions 200] [--rounds 3] [--out FILE] [--no-profile] [--ref COMMIT]
//   … [--callers exec] (who spends a function's self time, by caller path; repeatable)
//   node bench/profile-wake.mjs --read wake.cpuprofile [--rounds 3] [--callers …]   (a kept profile again)
//   node bench/profile-wake.mjs --bare   (the bare baseline's CPU per echoed command, the floor)
//   node bench/profile-wake.mjs --approval   (approvals of an edit tool instead of answers)
//   node bench/profile-wake.mjs --glass 10 [--no-profile]   (one model stream to N devices)
//   node bench/profile-wake.mjs --glass 10 --heap   (what that stream allocates, garbage included)
import { rmSync } from "node:fs";
import { cp, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startWranglerDev } from "../scripts/wrangler-dev.mjs";
import { withTimeout } from "./lib/clock.mjs";
import { printProfile } from "./lib/cpu-profile-report.mjs";
import { Device } from "./lib/device.mjs";
import { perThousand, SAMPLING, summarize, tables } from "./lib/heap-sampling.mjs";
import { mapLimit } from "./lib/http.mjs";
import { inspector } from "./lib/inspector.mjs";
import { startMockModelThread } from "./lib/mock-model.mjs";
import { ANSWERS, FIRST_TEXT_ALONE, questionReply } from "./lib/script.mjs";
import { SessionDevice } from "./lib/session-driver.mjs";
import { BareTarget, ParleyTarget, uniqueName } from "./lib/targets.mjs";
import { parleyFiles, snapshotBaseline, snapshotParley } from "./lib/worker-snapshot.mjs";

const { values } = parseArgs({
  options: {
    sessions: { type: "string", default: "200" },
    rounds: { type: "string", default: "3" },
    out: { type: "string", default: "" },
    top: { type: "string", default: "40" },
    ref: { type: "string" },
    "no-profile": { type: "boolean", default: false },
    bare: { type: "boolean", default: false },
    glass: { type: "string" },
    timeline: { type: "boolean", default: false },
    "no-inbox": { type: "boolean", default: false },
    approval: { type: "boolean", default: false },
    heap: { type: "boolean", default: false },
    callers: { type: "string", multiple: true, default: [] },
    read: { type: "string" },
  },
});
const sessions = Number(values.sessions);
const rounds = Number(values.rounds);
if (values.read) {
  // A profile written before (with the Worker's source maps beside it): reported again, no server started.
  const { readFile } = await import("node:fs/promises");
  await report(JSON.parse(await readFile(values.read, "utf8")), rounds, `${values.read}.maps`);
  process.exit(0);
}

const work = await mkdtemp(join(tmpdir(), "parley-profile-"));
const config = values.bare ? await snapshotBaseline(work) : await snapshotParley(work, work, values.ref);
const model = values.glass ? await startMockModelThread() : null;
// startWranglerDev waits for wrangler's own "Ready" line, so the answers never go to another
// process that took a free port first, and starts again on another port if one did.
const server = await startWranglerDev({
  label: "profile",
  config,
  persistTo: `${work}/state`,
  vars: values.bare
    ? {}
    : {
        ...(values["no-inbox"] ? { INBOX_DISABLED: "true" } : {}),
        ...(model ? { ANTHROPIC_API_KEY: "bench-key", ANTHROPIC_BASE_URL: model.baseUrl } : {}),
        ALLOW_SCRIPTED_SESSIONS: "true",
        ALLOW_OPEN_GATEWAY: "true",
        SOCKET_COMMANDS_PER_SECOND: "1000000",
        SOCKET_COMMAND_BURST: "1000000",
      },
});
const { baseUrl, inspectorPort } = server;
// startWranglerDev's own exit hook ends the server's group; the profile is kept when --out names
// a place for it.
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
if (values.bare) {
  // The floor: S bare objects, each sent one command and echoing it back, like many-sessions' baseline.
  const bare = new BareTarget(baseUrl);
  const slots = await mapLimit(Array.from({ length: sessions }), 8, async (_, i) => {
    const slot = { echoed: false, device: /** @type {Device} */ (/** @type {unknown} */ (null)) };
    slot.device = await Device.connect(bare.socketUrl(uniqueName(`p-${i}`)), {
      onEvent: (event) => {
        if (event.type === "echo") slot.echoed = true;
      },
    });
    return slot;
  });
  const bareRound = async () => {
    const start = performance.now();
    await Promise.all(
      slots.map(async (slot) => {
        slot.echoed = false;
        await slot.device.request({ type: "echo" });
        await withTimeout(
          slot.device.until(() => slot.echoed),
          60_000,
          "no echo",
        );
      }),
    );
    return performance.now() - start;
  };
  await bareRound();
  const cpu = [];
  for (let i = 0; i < rounds; i++) {
    const before = await groupCpu();
    await bareRound();
    cpu.push((await groupCpu()) - before);
  }
  console.log(
    `bare server CPU per command (ms): ${cpu.map((s) => ((s * 1000) / sessions).toFixed(2)).join(", ")}`,
  );
  process.exit(0);
}
const parley = new ParleyTarget(baseUrl, server.gatewayToken);
if (values.glass) {
  // One real-SDK model stream to N devices (400 deltas 2.5 ms apart), profiled: the fan-out path.
  const session = await parley.createSession({});
  const devices = await mapLimit(Array.from({ length: Number(values.glass) }), 8, async (_, i) => {
    const slot = { done: 0, device: /** @type {Device} */ (/** @type {unknown} */ (null)) };
    slot.device = await Device.connect(parley.socketUrl(session, { device: `g-${i}` }), {
      onEvent: (event) => {
        if (event.type === "done") slot.done += 1;
      },
    });
    return slot;
  });
  const turn = async (n) => {
    const before = devices.map((slot) => slot.done);
    await devices[0].device.request({ type: "send_message", text: `stream n=${n} pace=2.5` });
    await Promise.all(
      devices.map((slot, i) =>
        withTimeout(
          slot.device.until(() => slot.done > before[i]),
          120_000,
          "no done",
        ),
      ),
    );
  };
  await turn(50);
  if (values["no-profile"]) {
    // Server CPU per 1 000 streamed deltas, round by round, with no profiler attached.
    const cpu = [];
    for (let i = 0; i < rounds; i++) {
      const before = await groupCpu();
      await turn(1000);
      cpu.push((await groupCpu()) - before);
    }
    console.log(
      `server CPU per 1000 deltas to ${devices.length} devices (ms): ${cpu.map((c) => (c * 1000).toFixed(0)).join(", ")}`,
    );
    process.exit(0);
  }
  const { call } = await inspector(inspectorPort);
  if (values.heap) {
    // Allocation, not time: bytes a 1 000-delta stream makes in the object's isolate, by site.
    await call("HeapProfiler.startSampling", SAMPLING);
    await turn(1000);
    const { result } = await call("HeapProfiler.stopSampling");
    const site = (f) => `${f.functionName || "(anonymous)"} ${f.url.split("/").at(-1)}:${f.lineNumber + 1}`;
    const summary = summarize(result.profile, () => "isolate", site);
    console.log(`${perThousand(summary.total, 1000)} per 1 000 deltas to ${devices.length} devices\n`);
    console.log(tables(summary, 1000, Number(values.top)));
    process.exit(0);
  }
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: 100 });
  await call("Profiler.start");
  const cpuBefore = await groupCpu();
  await turn(400);
  const cpu = (await groupCpu()) - cpuBefore;
  const { result } = await call("Profiler.stop");
  console.log(`server CPU for 400 deltas to ${devices.length} devices: ${(cpu * 1000).toFixed(0)} ms`);
  await report(result.profile, 1);
  process.exit(0);
}
/** What pauses each turn: a question, or (`--approval`) an edit tool that needs approving. */
const pausing = (text) =>
  values.approval
    ? {
        ...(text ? FIRST_TEXT_ALONE : {}),
        content: [
          ...(text ? [{ type: "text", text }] : []),
          { type: "tool_use", name: "notes_write", input: { key: "bench", text: "benchmark note" } },
        ],
        stopReason: "tool_use",
      }
    : questionReply(undefined, text);
const script = [pausing(), ...Array.from({ length: rounds + 1 }, () => pausing("Noted."))];
const paused = await mapLimit(Array.from({ length: sessions }), 8, async (_, i) => {
  const session = await parley.createSession({
    script,
    ...(values.approval ? { permissionMode: "default" } : {}),
  });
  const watcher = await SessionDevice.open(parley, session, { device: `p-${i}` });
  const toolCallId = await watcher.askAndPause(
    "Ask me.",
    values.approval ? "approval_required" : "question_prompt",
  );
  return { watcher, toolCallId };
});
/** The command that lets a paused turn go on. */
const resolving = (toolCallId) =>
  values.approval
    ? { type: "approve", toolCallId }
    : { type: "submit_answers", toolCallId, answers: ANSWERS };

async function round() {
  const start = performance.now();
  await Promise.all(
    paused.map(async (slot) => {
      let resumed = false;
      slot.watcher.deltaListener = () => {
        resumed = true;
      };
      slot.watcher.listener = (event) => {
        if (event.type === "text_delta") resumed = true;
      };
      slot.watcher.prompt = null;
      const ack = await slot.watcher.device.request(resolving(slot.toolCallId));
      if (!ack.ok) throw new Error(JSON.stringify(ack.error));
      await withTimeout(
        slot.watcher.device.until(() => resumed),
        60_000,
        "no resume",
      );
    }),
  );
  const ms = performance.now() - start;
  await Promise.all(
    paused.map(async (slot) => {
      await withTimeout(
        slot.watcher.device.until(
          () => slot.watcher.prompt !== null && slot.watcher.status === "awaiting_input",
        ),
        60_000,
        "did not ask again",
      );
      slot.toolCallId = slot.watcher.prompt.toolCallId;
    }),
  );
  return ms;
}

/** CPU seconds (user + system) of every process in the server's group, from /proc. */
async function groupCpu() {
  const { readdir, readFile } = await import("node:fs/promises");
  let ticks = 0;
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // fields[2] is the process group; [11], [12] are utime and stime in clock ticks.
      if (Number(fields[2]) === server.processGroup) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {}
  }
  return ticks / 100;
}

console.error("warm-up round:", (await round()).toFixed(0), "ms");
if (values.timeline) {
  // One answer at a time: when its ack came back, and when the resumed call's first text did.
  const acks = [];
  const firsts = [];
  const reads = [];
  const readsAgain = [];
  for (let i = 0; i < rounds; i++) {
    for (const slot of paused) {
      let resumedAt = 0;
      slot.watcher.deltaListener = (at) => {
        resumedAt ||= at;
      };
      slot.watcher.listener = (event, at) => {
        if (event.type === "text_delta") resumedAt ||= at;
      };
      slot.watcher.prompt = null;
      // A command that reads only (a resume from the newest seq): its ack waits on no write.
      const readAt = performance.now();
      await slot.watcher.device.request({ type: "resume", after: 1_000_000 });
      reads.push(performance.now() - readAt);
      // The same again, now that the object is surely awake.
      const againAt = performance.now();
      await slot.watcher.device.request({ type: "resume", after: 1_000_000 });
      readsAgain.push(performance.now() - againAt);
      const sentAt = performance.timeOrigin + performance.now();
      await slot.watcher.device.request(resolving(slot.toolCallId));
      acks.push(performance.timeOrigin + performance.now() - sentAt);
      await withTimeout(
        slot.watcher.device.until(() => resumedAt !== 0),
        60_000,
        "no resume",
      );
      firsts.push(resumedAt - sentAt);
      await withTimeout(
        slot.watcher.device.until(
          () => slot.watcher.prompt !== null && slot.watcher.status === "awaiting_input",
        ),
        60_000,
        "did not ask again",
      );
      slot.toolCallId = slot.watcher.prompt.toolCallId;
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)].toFixed(2);
  console.log(
    `answer → ack: median ${median(acks)} ms; answer → first text: median ${median(firsts)} ms (${acks.length} answers, one at a time); a read-only command's ack: median ${median(reads)} ms first, ${median(readsAgain)} ms right after`,
  );
  process.exit(0);
}
const { call, ws } = await inspector(inspectorPort);
if (values["no-profile"]) {
  const cpu = [];
  const wall = [];
  for (let i = 0; i < rounds; i++) {
    const before = await groupCpu();
    wall.push(await round());
    cpu.push((await groupCpu()) - before);
  }
  // The second pass of each round (waiting for the next question) is CPU too; per answer it is
  // the whole cycle: answer, resume, the next question stored and sent.
  const perAnswer = cpu.map((seconds) => (seconds * 1000) / sessions);
  console.log(`server CPU per answer cycle (ms): ${perAnswer.map((v) => v.toFixed(2)).join(", ")}`);
  console.log(`wall per round (ms): ${wall.map((v) => v.toFixed(0)).join(", ")}`);
  process.exit(0);
}
await call("Profiler.enable");
await call("Profiler.setSamplingInterval", { interval: 100 });
await call("Profiler.start");
const times = [];
for (let i = 0; i < rounds; i++) times.push(await round());
const { result } = await call("Profiler.stop");
console.error("rounds (ms):", times.map((t) => t.toFixed(0)).join(", "));
await report(result.profile, rounds);
ws.close();
process.exit(0);

/** Writes the profile and prints its heaviest functions. */
async function report(profile, rounds, mapsDir = parleyFiles(work).modules) {
  if (!values.read) {
    const out = values.out || "wake.cpuprofile";
    await writeFile(out, JSON.stringify(profile));
    // The Worker is split into modules (scripts/build-worker.mjs), each with its own map.
    await cp(mapsDir, `${out}.maps`, { recursive: true, filter: (path) => !path.endsWith(".js") });
    console.error("profile:", out, `(the Worker's source maps beside it in ${out}.maps, for --read)`);
  }

  await printProfile(profile, {
    mapsDir,
    heading: `over ${rounds} rounds of ${sessions}`,
    top: Number(values.top),
    callers: values.callers,
  });
}
