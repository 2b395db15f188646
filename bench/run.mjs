// `npm run bench`: starts a local Messages API, Parley (snapshotted from the working tree), the
// bare-broadcast baseline and, with --peers, the agents SDK under `wrangler dev` on loopback, runs
// the scenarios against them, and prints and writes the results table. Any failure ends the run
// with a message and a non-zero exit, and no table.
import { existsSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { startWranglerDev } from "../scripts/wrangler-dev.mjs";
import { startMockModelThread } from "./lib/mock-model.mjs";
import { readOptions, USAGE, UsageError } from "./lib/options.mjs";
import { machineLine, markdownTable, toRows } from "./lib/report.mjs";
import { textReply } from "./lib/script.mjs";
import { BareTarget, ParleyTarget } from "./lib/targets.mjs";
import {
  bundleBaseline,
  describeCode,
  parleyFiles,
  snapshotBaseline,
  snapshotParley,
} from "./lib/worker-snapshot.mjs";
import { runExternalAgent } from "./scenarios/external-agent.mjs";
import { closeInbox, prepareInbox, runInbox } from "./scenarios/inbox.mjs";
import { closeManySessions, prepareManySessions, runManySessions } from "./scenarios/many-sessions.mjs";
import { runGlass } from "./scenarios/model-to-glass.mjs";
import { prepareReplay, runReplay } from "./scenarios/replay.mjs";
import { runResume } from "./scenarios/resume.mjs";
import { runStartup } from "./scenarios/startup.mjs";
import { runStorage } from "./scenarios/storage.mjs";

const RESULTS = fileURLToPath(new URL("./results/", import.meta.url));
const PEERS = fileURLToPath(new URL("./peers/", import.meta.url));
const started = performance.now();
const loadAtStart = loadavg()[0] ?? 0;

/** @param {string} line */
function log(line) {
  process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(1)}s] ${line}\n`);
}

async function wranglerVersion() {
  const pkg = JSON.parse(
    await readFile(new URL("../node_modules/wrangler/package.json", import.meta.url), "utf8"),
  );
  return pkg.version;
}

/**
 * Fails unless Parley accepts a scripted session and reports its storage counters.
 * @param {ParleyTarget} parley
 */
async function preflight(parley) {
  const session = await parley.createSession({ script: [textReply("ready")] }).catch((error) => {
    throw new Error(`Parley does not accept scripted sessions (POST /api/sessions): ${error.message}`);
  });
  await parley.stats(session);
}

/**
 * The figures of `run`, once `close` has also run (whether or not the run succeeded).
 * @template T @param {Promise<T>} run @param {() => Promise<void>} close
 */
async function closingAfter(run, close) {
  try {
    return await run;
  } finally {
    await close();
  }
}

async function main() {
  const options = readOptions(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  await mkdir(RESULTS, { recursive: true });
  const work = await mkdtemp(`${tmpdir()}/parley-bench-`);
  // Also on Ctrl-C, when the finally below does not run.
  process.on("exit", () => rmSync(work, { recursive: true, force: true }));
  // Ctrl-C or a kill still runs the exit handlers, which stop every wrangler dev started here.
  for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"]))
    process.on(signal, () => process.exit(130));
  /** @type {import("../scripts/wrangler-dev.mjs").DevServer[]} */
  const servers = [];
  if (options.peers && !existsSync(`${PEERS}node_modules/@cloudflare/ai-chat`)) {
    throw new UsageError("--peers needs the peer installed first: npm ci --prefix bench/peers");
  }
  const model = await startMockModelThread();
  try {
    log(`snapshotting and starting Parley and the baseline (state in ${work})`);
    const code = await describeCode(options.ref);
    log(`measuring ${code}`);
    const parleyConfig = await snapshotParley(work, RESULTS, options.ref);
    const baselineConfig = await snapshotBaseline(work);

    /** @type {import("./lib/figures.mjs").Figure[]} */
    const figures = [];
    /** @param {string} name @param {() => Promise<import("./lib/figures.mjs").Figure[]>} run */
    const measure = async (name, run) => {
      const begun = performance.now();
      figures.push(...(await run()));
      log(`${name} done in ${((performance.now() - begun) / 1000).toFixed(1)} s`);
    };
    // Start-up goes before any server starts: it runs workerds of its own, and the servers' work
    // (their alarms, their collections) would land in its readings.
    if (options.scenarios.includes("startup"))
      await measure("startup", async () =>
        runStartup({
          snapshot: parleyFiles(work),
          baseline: { bundle: await bundleBaseline(work, RESULTS) },
          options: { repeats: options.repeats },
          log,
        }),
      );

    const startParley = () =>
      startWranglerDev({
        label: "parley",
        config: parleyConfig,
        persistTo: `${work}/parley-state`,
        // Sessions without a script use the real Anthropic SDK, pointed at the local Messages API.
        // The load generator sends thousands of commands over one socket; the per-socket allowance
        // meant for misbehaving clients is lifted so it measures delivery, not the limit.
        vars: {
          ALLOW_SCRIPTED_SESSIONS: "true",
          ANTHROPIC_API_KEY: "bench-key",
          ANTHROPIC_BASE_URL: model.baseUrl,
          ALLOW_OPEN_GATEWAY: "true",
          SOCKET_COMMANDS_PER_SECOND: "1000000",
          SOCKET_COMMAND_BURST: "1000000",
        },
        logDir: RESULTS,
      });
    const [parleyServer, bareServer] = await Promise.all([
      startParley(),
      startWranglerDev({
        label: "baseline",
        config: baselineConfig,
        persistTo: `${work}/baseline-state`,
        logDir: RESULTS,
      }),
    ]);
    servers.push(parleyServer, bareServer);
    const agentsServer = options.peers
      ? await startWranglerDev({
          label: "agents",
          config: `${PEERS}wrangler.toml`,
          persistTo: `${work}/agents-state`,
          vars: { MOCK_MODEL_URL: model.baseUrl },
          logDir: RESULTS,
        })
      : null;
    if (agentsServer) servers.push(agentsServer);
    const bare = new BareTarget(bareServer.baseUrl);
    let parley = new ParleyTarget(parleyServer.baseUrl, parleyServer.gatewayToken);
    await preflight(parley);

    const restartParley = async () => {
      const old = /** @type {import("../scripts/wrangler-dev.mjs").DevServer} */ (servers.shift());
      await old.stop();
      const fresh = await startParley();
      servers.unshift(fresh);
      parley = new ParleyTarget(fresh.baseUrl, fresh.gatewayToken);
      return parley;
    };

    // Model-to-glass goes first, on servers that hold nothing yet: the fixtures below leave some 250
    // sessions' objects in Parley's isolate (its heap grew from about 7 to 45 MiB) and almost nothing
    // in the baseline's, and Parley's 10-device tail came with them (p99 11–19 ms in full runs, 2.6–
    // 7.6 ms in runs without them), a cost of the run's order rather than of the stream path.
    if (options.scenarios.includes("glass"))
      await measure("glass", () =>
        runGlass({
          parley,
          bare,
          agentsUrl: agentsServer?.baseUrl ?? null,
          modelUrl: model.baseUrl,
          log,
          options: { ...options },
        }),
      );

    // Untimed preparation runs next and side by side: filling the replay session and pausing the
    // many sessions take longest and measure nothing.
    const replayOptions = { missed: options.replayMissed, repeats: options.repeats };
    const manyOptions = { sessions: options.sessions, repeats: options.repeats };
    const inboxOptions = { sessions: options.inboxSessions, repeats: options.repeats };
    const begunPreparing = performance.now();
    const [replayFixture, manyFixture, inboxFixture] = await Promise.all([
      options.scenarios.includes("replay")
        ? prepareReplay({ parley, bare, log, options: replayOptions })
        : null,
      options.scenarios.includes("many")
        ? prepareManySessions({ parley, bare, log, options: manyOptions })
        : null,
      options.scenarios.includes("inbox") ? prepareInbox({ parley, log, options: inboxOptions }) : null,
    ]);
    log(`prepared in ${((performance.now() - begunPreparing) / 1000).toFixed(1)} s`);

    // A scenario's sessions and sockets are closed once its figures are taken, so the scenarios after
    // it measure a load generator and servers without them: 250 idle sockets in the one load-generator
    // process, and their objects, slowed the next scenario's tails on both sides.
    /** @type {Record<"many" | "inbox", (() => Promise<void>) | null>} */
    const closers = {
      many: manyFixture ? () => closeManySessions(manyFixture) : null,
      inbox: inboxFixture ? () => closeInbox(inboxFixture) : null,
    };
    /** @param {"many" | "inbox"} name */
    const closeFixture = async (name) => {
      const close = closers[name];
      closers[name] = null;
      await close?.();
    };

    // Replay and many sessions go first after model-to-glass, while their sessions are fresh; resume
    // goes last because it restarts wrangler dev.
    /** @type {Record<string, () => Promise<import("./lib/figures.mjs").Figure[]>>} */
    const scenarios = {
      replay: () =>
        runReplay({ parley, bare, options: replayOptions, fixture: /** @type {any} */ (replayFixture) }),
      many: () =>
        closingAfter(
          runManySessions({ log, options: manyOptions, fixture: /** @type {any} */ (manyFixture) }),
          () => closeFixture("many"),
        ),
      inbox: () =>
        closingAfter(
          runInbox({ parley, bare, log, options: inboxOptions, fixture: /** @type {any} */ (inboxFixture) }),
          () => closeFixture("inbox"),
        ),
      storage: () =>
        runStorage({
          parley,
          log,
          options: {
            deltas: options.storageDeltas,
            chunk: options.chunk,
            paceMs: options.paceMs,
            repeats: options.repeats,
          },
        }),
      agent: () =>
        runExternalAgent({ parley, bare, log, options: { repeats: options.repeats, devices: 10 } }),
      resume: () =>
        runResume({
          parley,
          bare,
          restartParley,
          log,
          options: { repeats: options.resumeRepeats, eviction: options.eviction },
        }),
    };
    try {
      for (const name of Object.keys(scenarios).filter((key) => options.scenarios.includes(key)))
        await measure(name, /** @type {() => Promise<any>} */ (scenarios[name]));
    } finally {
      await closeFixture("many");
      await closeFixture("inbox");
    }
    figures.sort((a, b) => a.scenario.localeCompare(b.scenario));
    const rows = toRows(figures);
    const elapsed = (performance.now() - started) / 1000;
    const report = [
      "# Parley benchmark results",
      "",
      `Parley at ${code}.`,
      "",
      `Run ${new Date().toISOString()} in ${elapsed.toFixed(0)} s on ${machineLine({ wranglerVersion: await wranglerVersion() })}; ` +
        `1-minute load average ${loadAtStart.toFixed(2)} at the start and ${loadavg()[0]?.toFixed(2)} at the end.`,
      `Local \`wrangler dev\` on loopback; each value is the median of ${options.repeats} measured repeats after a warm-up ` +
        `(${options.resumeRepeats} for answer-to-resume; yes/no and error counts show the worst repeat). ` +
        "Baseline = a bare-broadcast Durable Object " +
        "(bench/baseline) driven by the same load generator in the same run; ratio = Parley ÷ baseline" +
        (options.peers
          ? "; agents SDK = Cloudflare's AIChatAgent (bench/peers) in the same run, ÷ agents = Parley ÷ agents. "
          : ". ") +
        "The model is a local Messages API stamping each delta at emission (bench/lib/mock-model.mjs). " +
        "See bench/README.md for what each figure includes.",
      "",
      `Parameters: \`${process.argv.slice(2).join(" ") || "(defaults)"}\` → devices ${options.devices.join("/")}, ` +
        `model deltas ${options.paces.join(" and ")} ms apart (${options.pacedDeltas} at the fastest pace, ~2 s of stream at slower ones), ` +
        `burst ${options.burstDeltas} deltas, storage ${options.storageDeltas} scripted deltas of ${options.chunk} characters ${options.paceMs} ms apart, ` +
        `replay ${options.replayMissed.join("/")} missed, ${options.sessions} sessions, ` +
        `${options.resumeRepeats} answers timed per answer-to-resume figure.`,
      "",
      markdownTable(rows),
      "",
    ].join("\n");
    console.log(report);
    const out = options.out ?? `${RESULTS}${options.full ? "latest.md" : "partial.md"}`;
    await writeFile(out, report);
    await writeFile(out.replace(/\.md$/, ".json"), JSON.stringify({ options, figures }, null, 2));
    log(`wrote ${out}`);
    const failed = rows.filter((row) => row.pass === false);
    if (failed.length > 0) {
      log(
        `${failed.length} figure(s) missed their target: ${failed.map((row) => row.figure.label).join("; ")}`,
      );
      if (options.strict) return 3;
    }
    return 0;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await model.close();
    await rm(work, { recursive: true, force: true });
  }
}

// However the servers behave, the run ends by itself.
const RUN_LIMIT_MS = 15 * 60_000;
setTimeout(() => {
  log(`FAILED: the run exceeded ${RUN_LIMIT_MS / 60_000} minutes; no results were written`);
  process.exit(1);
}, RUN_LIMIT_MS).unref();

main().then(
  (code) => process.exit(code),
  (error) => {
    log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
    if (error instanceof UsageError) {
      process.stderr.write(`${USAGE}\n`);
      process.exit(1);
    }
    if (error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    log(`no results were written; wrangler output is in ${RESULTS}*.log`);
    process.exit(1);
  },
);
