// Scenario 7, the inbox: a card opens in one of S sessions of one person; the time from its own
// session's device seeing it to the person's inbox stream showing it (the outbox row, the session's
// alarm, the inbox's apply and broadcast), p50 and p99 over every card of a repeat; and the rows the
// inbox writes per card over its life (opened, answered, the status changes around both). The
// baseline: S bare objects that each broadcast a card and then call one bare "inbox" object, which
// broadcasts it too.
import { now, withTimeout } from "../lib/clock.mjs";
import { Device } from "../lib/device.mjs";
import { alternate, figure } from "../lib/figures.mjs";
import { mapLimit } from "../lib/http.mjs";
import { ANSWERS, questionReply, textReply } from "../lib/script.mjs";
import { SessionDevice } from "../lib/session-driver.mjs";
import { percentile } from "../lib/stats.mjs";
import { InboxTarget, uniqueName } from "../lib/targets.mjs";

/** @typedef {{ sessions: number, repeats: number }} InboxOptions */

const SETUP_CONCURRENCY = 8;
const CARD_TIMEOUT_MS = 30_000;

/**
 * @typedef {object} InboxFixture
 * @property {SessionDevice[]} watchers  one device per Parley session
 * @property {Device} inbox              the person's inbox stream
 * @property {Map<string, number>} seenOnInbox  sessionId → receipt time of its latest card_opened
 */

/**
 * S sessions of the benchmark's one person, idle, each with a device, and the inbox stream open.
 * Not timed.
 * @param {{ parley: import("../lib/targets.mjs").ParleyTarget, options: InboxOptions, log: (line: string) => void }} context
 * @returns {Promise<InboxFixture>}
 */
export async function prepareInbox({ parley, options, log }) {
  log(`inbox: ${options.sessions} sessions of one person, and their inbox stream`);
  const rounds = options.repeats + 1;
  const script = Array.from({ length: rounds }, () => [questionReply(), textReply("Noted.")]).flat();
  const watchers = await mapLimit(
    Array.from({ length: options.sessions }),
    SETUP_CONCURRENCY,
    async (_, i) => {
      const session = await parley.createSession({ script });
      const watcher = await SessionDevice.open(parley, session, { device: `inbox-${i}` });
      return Object.assign(watcher, { sessionId: session.sessionId });
    },
  );
  const target = new InboxTarget(parley);
  const seenOnInbox = new Map();
  const { lastSeq } = await target.view();
  const inbox = await Device.connect(await target.socketUrl(lastSeq), {
    after: lastSeq,
    onEvent: (event, receivedAt) => {
      const change = /** @type {{ sessionId: string, change: { type: string } }} */ (
        /** @type {unknown} */ (event)
      );
      if (change.change?.type === "card_opened") seenOnInbox.set(change.sessionId, receivedAt);
    },
  });

  return {
    watchers: /** @type {SessionDevice[]} */ (watchers),
    inbox,
    seenOnInbox,
  };
}

/**
 * One card in every session, one after another: each latency, then (untimed) the answer.
 * @param {InboxFixture} fixture
 * @param {InboxTarget} target
 */
async function parleyRound(fixture, target) {
  const before = await target.stats();
  const latencies = [];
  for (const watcher of fixture.watchers) {
    const sessionId = /** @type {string} */ (/** @type {any} */ (watcher).sessionId);
    let openedAt = 0;
    watcher.listener = (event, receivedAt) => {
      if (event.type === "question_prompt" && openedAt === 0) openedAt = receivedAt;
    };
    fixture.seenOnInbox.delete(sessionId);
    const toolCallId = await watcher.askAndPause("Ask me.", "question_prompt");
    await withTimeout(
      fixture.inbox.until(() => fixture.seenOnInbox.has(sessionId)),
      CARD_TIMEOUT_MS,
      "the card never reached the inbox stream",
    );
    latencies.push(/** @type {number} */ (fixture.seenOnInbox.get(sessionId)) - openedAt);
    watcher.listener = null;
    const dones = watcher.dones;
    const ack = await watcher.device.request({ type: "submit_answers", toolCallId, answers: ANSWERS });
    if (!ack.ok) throw new Error(`submit_answers refused: ${JSON.stringify(ack.error)}`);
    await withTimeout(
      watcher.device.until(() => watcher.dones > dones),
      CARD_TIMEOUT_MS,
      "no turn end",
    );
  }
  // The answers' reports reach the inbox on the sessions' alarms: wait until it shows every
  // session idle with no card, the last report of a card's life, before reading its counters.
  const ids = new Set(fixture.watchers.map((watcher) => /** @type {any} */ (watcher).sessionId));
  const deadline = now() + CARD_TIMEOUT_MS;
  for (;;) {
    const view = await target.view();
    const settled = view.sessions.filter(
      (session) => ids.has(session.sessionId) && session.status === "idle" && session.openCards === 0,
    );
    if (settled.length === ids.size) break;
    if (now() > deadline) throw new Error("the inbox never showed every session idle");
  }
  const after = await target.stats();
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    rowsPerCard: (after.rowsWritten - before.rowsWritten) / fixture.watchers.length,
  };
}

/**
 * Fresh bare objects each round (untimed): a bare object keeps its seq in memory only, so one that
 * hibernated while Parley's round ran would number its events from 1 again.
 * @param {import("../lib/targets.mjs").BareTarget} bare
 * @param {number} sessions
 */
async function bareRound(bare, sessions) {
  const inbox = uniqueName("inbox");
  const seen = { at: 0 };
  const inboxDevice = await Device.connect(bare.socketUrl(inbox), {
    onEvent: (_, receivedAt) => {
      seen.at = receivedAt;
    },
  });
  const slots = await mapLimit(Array.from({ length: sessions }), SETUP_CONCURRENCY, async (_, i) => {
    const slot = {
      name: uniqueName(`inbox-session-${i}`),
      device: /** @type {Device} */ (/** @type {unknown} */ (null)),
      cardAt: 0,
    };
    slot.device = await Device.connect(bare.socketUrl(slot.name), {
      onEvent: (event, receivedAt) => {
        if (event.type === "card") slot.cardAt = receivedAt;
      },
    });
    return slot;
  });
  const latencies = [];
  try {
    for (const slot of slots) {
      seen.at = 0;
      await bare.card(slot.name, inbox);
      await withTimeout(
        Promise.all([slot.device.until(() => slot.cardAt !== 0), inboxDevice.until(() => seen.at !== 0)]),
        CARD_TIMEOUT_MS,
        "the bare card never arrived",
      );
      latencies.push(seen.at - slot.cardAt);
    }
  } finally {
    await Promise.all([inboxDevice.close(), ...slots.map((slot) => slot.device.close())]);
  }
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), rowsPerCard: 0 };
}

/**
 * @param {{ parley: import("../lib/targets.mjs").ParleyTarget, bare: import("../lib/targets.mjs").BareTarget, options: InboxOptions, fixture: InboxFixture, log: (line: string) => void }} context
 * @returns {Promise<import("../lib/figures.mjs").Figure[]>}
 */
export async function runInbox({ parley, bare, options, fixture, log }) {
  const scenario = "7. Inbox";
  log(`inbox: a card opens in each of ${options.sessions} sessions in turn`);
  const target = new InboxTarget(parley);
  const runs = await alternate(
    options.repeats,
    () => bareRound(bare, options.sessions),
    () => parleyRound(fixture, target),
  );
  const what = `a card opens in one of ${options.sessions} sessions → on the inbox stream`;
  return [
    figure({
      scenario,
      label: `${what} (p50, after its session's device saw it)`,
      unit: "ms",
      parley: runs.parley.map((run) => run.p50),
      bare: runs.bare.map((run) => run.p50),
      target: { atMost: 250 },
    }),
    figure({
      scenario,
      label: `${what} (p99)`,
      unit: "ms",
      parley: runs.parley.map((run) => run.p99),
      bare: runs.bare.map((run) => run.p99),
      target: { atMost: 1000 },
    }),
    figure({
      scenario,
      label: "inbox rows written per card (opened, answered, and the status changes around both)",
      unit: "rows",
      parley: runs.parley.map((run) => run.rowsPerCard),
      bare: runs.bare.map((run) => run.rowsPerCard),
      target: { atMost: 20 },
    }),
  ];
}

/** @param {InboxFixture} fixture */
export async function closeInbox(fixture) {
  await mapLimit(fixture.watchers, SETUP_CONCURRENCY * 4, (watcher) => watcher.close());
  await fixture.inbox.close();
}
