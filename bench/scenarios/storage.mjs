// Scenario 2, storage cost: SQLite rows written and bytes stored per 1 000 streamed text deltas
// (a turn streaming K deltas, less a turn with one short reply, scaled to 1 000) and per turn (the
// short one). Figures come from the Durable Object's own counters (GET /api/sessions/:id/stats)
// read around each turn, so they are exact whatever the machine's speed.
import { figure } from "../lib/figures.mjs";
import { countingText, textReply } from "../lib/script.mjs";
import { SessionDevice } from "../lib/session-driver.mjs";

/** @typedef {{ deltas: number, chunk: number, paceMs: number, repeats: number }} StorageOptions */

const SHORT = "Done.";

/**
 * One session: a short turn (its first-turn costs are not counted), then per repeat a turn of K
 * deltas and a short turn, with the counters read around each.
 * @param {import("../lib/targets.mjs").ParleyTarget} parley
 * @param {StorageOptions} options
 * @param {number} paceMs
 */
async function measure(parley, options, paceMs) {
  const long = textReply(countingText(options.deltas, options.chunk), {
    textChunkSize: options.chunk,
    paceMs,
  });
  const script = [textReply(SHORT)];
  for (let i = 0; i < options.repeats; i++) script.push(long, textReply(SHORT));
  const session = await parley.createSession({ script });
  const watcher = await SessionDevice.open(parley, session, { device: "storage" });
  const runs = [];
  try {
    await watcher.converse("Hello.", 15_000);
    for (let i = 0; i < options.repeats; i++) {
      const before = await parley.stats(session);
      await watcher.converse("Stream.", 30_000 + options.deltas * paceMs * 4);
      const streamed = await parley.stats(session);
      await watcher.converse("Briefly.", 15_000);
      const after = await parley.stats(session);
      const shortRows = after.rowsWritten - streamed.rowsWritten;
      const shortBytes = after.storageBytes - streamed.storageBytes;
      const scale = 1000 / options.deltas;
      runs.push({
        rowsPer1000: (streamed.rowsWritten - before.rowsWritten - shortRows) * scale,
        eventsPer1000: (streamed.events - before.events - (after.events - streamed.events)) * scale,
        bytesPer1000: (streamed.storageBytes - before.storageBytes - shortBytes) * scale,
        rowsShortTurn: shortRows,
        bytesShortTurn: shortBytes,
      });
    }
    return runs;
  } finally {
    await watcher.close();
  }
}

/**
 * @param {{ parley: import("../lib/targets.mjs").ParleyTarget, options: StorageOptions, log: (line: string) => void }} context
 * @returns {Promise<import("../lib/figures.mjs").Figure[]>}
 */
export async function runStorage({ parley, options, log }) {
  const scenario = "2. Storage";
  log(`storage: turns of ${options.deltas} deltas, ${options.paceMs} ms apart and in a burst`);
  const paced = await measure(parley, options, options.paceMs);
  const burst = await measure(parley, options, 0);
  const k = `turns of ${options.deltas} deltas`;
  return [
    figure({
      scenario,
      label: `rows written per 1 000 streamed deltas (${k}, ${options.paceMs} ms apart; beyond a short turn)`,
      unit: "rows",
      parley: paced.map((run) => run.rowsPer1000),
      target: { atMost: 50 },
    }),
    figure({
      scenario,
      label: `rows written per 1 000 streamed deltas (${k} in a burst; beyond a short turn)`,
      unit: "rows",
      parley: burst.map((run) => run.rowsPer1000),
      target: { atMost: 50 },
    }),
    figure({
      scenario,
      label: `events stored per 1 000 streamed deltas (${options.paceMs} ms apart; beyond a short turn)`,
      unit: "events",
      parley: paced.map((run) => run.eventsPer1000),
    }),
    figure({
      scenario,
      label: `bytes stored per 1 000 streamed deltas (${options.paceMs} ms apart; the database grows in pages)`,
      unit: "B",
      parley: paced.map((run) => run.bytesPer1000),
    }),
    figure({
      scenario,
      label: "rows written per turn (a message and a one-delta reply)",
      unit: "rows",
      parley: paced.map((run) => run.rowsShortTurn),
    }),
    figure({
      scenario,
      label: "bytes stored per turn (a message and a one-delta reply)",
      unit: "B",
      parley: paced.map((run) => run.bytesShortTurn),
    }),
  ];
}
