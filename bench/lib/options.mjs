// Command-line options of `npm run bench`, with defaults sized to finish in about two minutes on
// two cores.
import { parseArgs } from "node:util";

export const SCENARIOS = ["glass", "storage", "replay", "resume", "many", "startup", "inbox", "agent"];

/** A mistake on the command line: reported without a stack trace. */
export class UsageError extends Error {}

export const USAGE = `Usage: npm run bench -- [options]

  --scenarios LIST       which to run, comma-separated (default: ${SCENARIOS.join(",")})
  --repeats N            measured repeats per figure; the table shows their median (default 3)
  --devices LIST         model-to-glass device counts (default 1,10,100)
  --paces LIST           ms between model deltas in the paced streams (default 2.5,20)
  --paced-deltas K       deltas of the fastest paced stream; slower ones stream ~2 s, and 100
                         devices get at most 40 000 frames (default 2000)
  --burst-deltas K       deltas of the burst stream (default 2000)
  --peers                also run Cloudflare's agents SDK (install it first:
                         npm ci --prefix bench/peers) and report ratios against it
  --pace-ms MS           delay between the storage scenario's scripted deltas (default 2)
  --chunk C              characters per scripted text delta (default 4)
  --storage-deltas K     text deltas in the storage scenario's streamed turn (default 1000)
  --replay-missed LIST   events a reconnecting device missed (default 1000,10000)
  --sessions S           paused sessions answered at once (default 200)
  --inbox-sessions S     sessions of one person whose cards the inbox scenario opens (default 50)
  --resume-repeats N     answers timed per answer-to-resume figure; cheap, so more (default 9)
  --no-eviction          skip the answer-after-restart variant (it restarts wrangler dev)
  --ref COMMIT           measure the server code of a commit instead of the working tree
  --strict               exit 3 when a figure misses its target
  --out FILE             results file (default bench/results/latest.md for a full run,
                         bench/results/partial.md otherwise)
  --help`;

/** @param {string} text @param {string} name */
function positiveInts(text, name) {
  const values = text.split(",").map((part) => Number(part.trim()));
  if (values.length === 0 || values.some((value) => !Number.isInteger(value) || value <= 0)) {
    throw new UsageError(`--${name} wants positive whole numbers, got "${text}"`);
  }
  return values;
}

/** @param {string} text @param {string} name */
function positiveNumbers(text, name) {
  const values = text.split(",").map((part) => Number(part.trim()));
  if (values.some((value) => !Number.isFinite(value) || value <= 0)) {
    throw new UsageError(`--${name} wants positive numbers, got "${text}"`);
  }
  return values;
}

/** @param {string} text @param {string} name @param {number} min */
function int(text, name, min = 1) {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min)
    throw new UsageError(`--${name} wants a whole number ≥ ${min}, got "${text}"`);
  return value;
}

/** @param {Parameters<typeof parseArgs>[0]} config */
function parseArgsOrExplain(config) {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** @param {string[]} argv */
export function readOptions(argv) {
  const { values } = parseArgsOrExplain({
    args: argv,
    options: {
      scenarios: { type: "string", default: SCENARIOS.join(",") },
      repeats: { type: "string", default: "3" },
      devices: { type: "string", default: "1,10,100" },
      paces: { type: "string", default: "2.5,20" },
      peers: { type: "boolean", default: false },
      "paced-deltas": { type: "string", default: "2000" },
      "pace-ms": { type: "string", default: "2" },
      "burst-deltas": { type: "string", default: "2000" },
      chunk: { type: "string", default: "4" },
      "storage-deltas": { type: "string", default: "1000" },
      "replay-missed": { type: "string", default: "1000,10000" },
      sessions: { type: "string", default: "200" },
      "inbox-sessions": { type: "string", default: "50" },
      "resume-repeats": { type: "string", default: "9" },
      "no-eviction": { type: "boolean", default: false },
      strict: { type: "boolean", default: false },
      ref: { type: "string" },
      out: { type: "string" },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  const scenarios = values.scenarios.split(",").map((name) => name.trim());
  for (const name of scenarios) {
    if (!SCENARIOS.includes(name))
      throw new UsageError(`unknown scenario "${name}" (known: ${SCENARIOS.join(", ")})`);
  }
  const chunk = int(values.chunk, "chunk");
  const options = {
    help: values.help,
    scenarios,
    full: SCENARIOS.every((name) => scenarios.includes(name)) && !values["no-eviction"],
    repeats: int(values.repeats, "repeats"),
    devices: positiveInts(values.devices, "devices"),
    paces: positiveNumbers(values.paces, "paces"),
    peers: values.peers,
    pacedDeltas: int(values["paced-deltas"], "paced-deltas"),
    paceMs: int(values["pace-ms"], "pace-ms"),
    burstDeltas: int(values["burst-deltas"], "burst-deltas"),
    chunk,
    storageDeltas: int(values["storage-deltas"], "storage-deltas"),
    replayMissed: positiveInts(values["replay-missed"], "replay-missed"),
    sessions: int(values.sessions, "sessions"),
    inboxSessions: int(values["inbox-sessions"], "inbox-sessions"),
    resumeRepeats: int(values["resume-repeats"], "resume-repeats"),
    eviction: !values["no-eviction"],
    strict: values.strict,
    ref: values.ref,
    out: values.out,
  };
  // A scripted reply holds at most 100 000 characters of text.
  for (const deltas of [options.storageDeltas]) {
    if (deltas * chunk > 100_000)
      throw new UsageError(`${deltas} deltas × ${chunk} characters exceed one scripted reply`);
  }
  return options;
}
