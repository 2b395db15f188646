// Scenario 5, many sessions: S sessions each paused on a question, all answered at once; the time
// until every device saw its session resume (the first text of the next model call), and how many
// failed. Each resumed reply asks again, so one set of sessions serves the warm-up and every
// repeat. The baseline sends one command to each of S bare objects at once.
import { now, withTimeout } from "../lib/clock.mjs";
import { closeAll, Device } from "../lib/device.mjs";
import { alternate, figure } from "../lib/figures.mjs";
import { mapLimit } from "../lib/http.mjs";
import { ANSWERS, questionReply } from "../lib/script.mjs";
import { SessionDevice } from "../lib/session-driver.mjs";
import { uniqueName } from "../lib/targets.mjs";

/** @typedef {{ sessions: number, repeats: number }} ManyOptions */

// Low enough that preparing 200 sessions on a machine shared with other work does not starve the
// server of the seconds each hello needs under that load.
const SETUP_CONCURRENCY = 8;
const ANSWER_TIMEOUT_MS = 60_000;

/**
 * @typedef {object} ManyFixture
 * @property {{ watcher: SessionDevice, toolCallId: string, failed?: boolean }[]} paused  one device per Parley session
 * @property {{ device: Device, echoedAt: number }[]} bare              one device per bare object
 */

/**
 * Creates S paused Parley sessions (and S connected bare objects). Not timed.
 * @param {{ parley: import("../lib/targets.mjs").ParleyTarget, bare: import("../lib/targets.mjs").BareTarget, options: ManyOptions, log: (line: string) => void }} context
 * @returns {Promise<ManyFixture>}
 */
export async function prepareManySessions({ parley, bare, options, log }) {
  log(`many sessions: pausing ${options.sessions} sessions on a question`);
  const rounds = options.repeats + 1;
  const script = [
    questionReply(),
    ...Array.from({ length: rounds }, () => questionReply(undefined, "Noted.")),
  ];
  const paused = await mapLimit(Array.from({ length: options.sessions }), SETUP_CONCURRENCY, async (_, i) => {
    const session = await parley.createSession({ script });
    const watcher = await SessionDevice.open(parley, session, { device: `many-${i}` });
    const toolCallId = await watcher.askAndPause("Ask me.", "question_prompt");
    return { watcher, toolCallId };
  });
  const bareDevices = await mapLimit(
    Array.from({ length: options.sessions }),
    SETUP_CONCURRENCY,
    async (_, i) => {
      const slot = { device: /** @type {Device} */ (/** @type {unknown} */ (null)), echoedAt: 0 };
      slot.device = await Device.connect(bare.socketUrl(uniqueName(`many-${i}`)), {
        onEvent: (event, receivedAt) => {
          if (event.type === "echo" && slot.echoedAt === 0) slot.echoedAt = receivedAt;
        },
      });
      return slot;
    },
  );
  return { paused, bare: bareDevices };
}

/**
 * Awaits every outcome; the time runs to the last success, and failures are counted.
 * @param {Promise<number>[]} outcomes  each resolves to its receipt time
 * @param {number} start
 */
async function settle(outcomes, start) {
  const results = await Promise.allSettled(outcomes);
  const done = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failures = results.flatMap((result) => (result.status === "rejected" ? [String(result.reason)] : []));
  if (done.length === 0) throw new Error(`every answer failed; the first: ${failures[0]}`);
  return { totalMs: Math.max(...done) - start, errors: failures.length, firstError: failures[0] ?? "" };
}

/**
 * Answers every paused session at once, then (untimed) waits for each to pause again.
 * @param {ManyFixture} fixture
 */
async function parleyRound(fixture) {
  const start = now();
  const outcomes = fixture.paused.map(async (slot) => {
    const { watcher, toolCallId } = slot;
    slot.failed = true;
    let resumedAt = 0;
    watcher.listener = (event, receivedAt) => {
      if (event.type === "text_delta" && resumedAt === 0) resumedAt = receivedAt;
    };
    // The first text is the live delta; the stored copy follows it.
    watcher.deltaListener = (receivedAt) => {
      if (resumedAt === 0) resumedAt = receivedAt;
    };
    watcher.prompt = null;
    const ack = await watcher.device.request({ type: "submit_answers", toolCallId, answers: ANSWERS });
    if (!ack.ok) throw new Error(`submit_answers refused: ${JSON.stringify(ack.error)}`);
    await withTimeout(
      watcher.device.until(() => resumedAt !== 0),
      ANSWER_TIMEOUT_MS,
      "no resume",
    );
    slot.failed = false;
    return resumedAt;
  });
  const result = await settle(outcomes, start);
  // A session that failed is counted once and left out of later rounds.
  fixture.paused = fixture.paused.filter((slot) => !slot.failed);
  await Promise.all(
    fixture.paused.map(async (slot) => {
      const { watcher } = slot;
      watcher.listener = null;
      await withTimeout(
        watcher.device.until(() => watcher.prompt !== null && watcher.status === "awaiting_input"),
        ANSWER_TIMEOUT_MS,
        "a session did not ask again",
      );
      slot.toolCallId = /** @type {{ toolCallId: string }} */ (watcher.prompt).toolCallId;
    }),
  );
  return result;
}

/** @param {ManyFixture} fixture */
async function bareRound(fixture) {
  const start = now();
  const outcomes = fixture.bare.map(async (slot) => {
    slot.echoedAt = 0;
    const ack = await slot.device.request({ type: "echo" });
    if (!ack.ok) throw new Error(`echo refused: ${JSON.stringify(ack.error)}`);
    await withTimeout(
      slot.device.until(() => slot.echoedAt !== 0),
      ANSWER_TIMEOUT_MS,
      "no echo",
    );
    return slot.echoedAt;
  });
  return settle(outcomes, start);
}

/**
 * @param {{ options: ManyOptions, fixture: ManyFixture, log: (line: string) => void }} context
 * @returns {Promise<import("../lib/figures.mjs").Figure[]>}
 */
export async function runManySessions({ options, fixture, log }) {
  const scenario = "5. Many sessions";
  log(`many sessions: ${options.sessions} paused sessions answered at once`);
  {
    const runs = await alternate(
      options.repeats,
      () => bareRound(fixture),
      () => parleyRound(fixture),
    );
    for (const run of [...runs.parley, ...runs.bare]) {
      if (run.errors > 0) log(`many sessions: ${run.errors} failed, the first: ${run.firstError}`);
    }
    const what = `${options.sessions} sessions`;
    return [
      figure({
        scenario,
        label: `${what} answered at once: until every device saw its session resume`,
        unit: "ms",
        parley: runs.parley.map((run) => run.totalMs),
        bare: runs.bare.map((run) => run.totalMs),
        target: { ratioAtMost: 6 },
      }),
      figure({
        scenario,
        label: `${what} answered at once: failed answers`,
        unit: "count",
        parley: runs.parley.map((run) => run.errors),
        bare: runs.bare.map((run) => run.errors),
        target: { equals: 0 },
        aggregate: "worst",
      }),
    ];
  }
}

/** @param {ManyFixture} fixture */
export async function closeManySessions(fixture) {
  await mapLimit(fixture.paused, SETUP_CONCURRENCY * 4, ({ watcher }) => watcher.close());
  await closeAll(fixture.bare.map((slot) => slot.device));
}
