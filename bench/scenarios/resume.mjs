// Scenario 4, answer-to-resume: from a device sending an answer (or approval) to the same device
// receiving the first text of the model call that the answer unblocked. Also after a restart of
// `wrangler dev` while the question waited (the Durable Object's memory is gone; storage stays).
// The baseline is a bare command round trip: command in, broadcast event out.
import { now, sleep, withTimeout } from "../lib/clock.mjs";
import { Device } from "../lib/device.mjs";
import { alternate, figure } from "../lib/figures.mjs";
import { ANSWERS, approvalReply, questionReply, textReply } from "../lib/script.mjs";
import { SessionDevice } from "../lib/session-driver.mjs";
import { uniqueName } from "../lib/targets.mjs";

/** @typedef {{ repeats: number, eviction: boolean }} ResumeOptions */

const RESUME_TIMEOUT_MS = 15_000;

/**
 * How long after its card shows a timed answer is sent. A person takes seconds; 50 ms is far below
 * that and far above the few milliseconds the step that opened the card goes on working after its
 * card and status are out (the next deadline armed, the inbox's row written, the grants asked first
 * for an approval). Answering inside that tail times the tail too; the "at once" figures do, untargeted.
 */
export const REACTION_MS = 50;

/**
 * Sends the resolving command and times it to the first live model delta that follows.
 * @param {SessionDevice} watcher
 * @param {Record<string, unknown>} command
 * @returns {Promise<number>} milliseconds
 */
export async function timeResume(watcher, command) {
  let resumedAt = 0;
  watcher.listener = (event, receivedAt) => {
    if (event.type === "text_delta" && resumedAt === 0) resumedAt = receivedAt;
  };
  // The first text is the live delta; the stored copy follows it.
  watcher.deltaListener = (receivedAt) => {
    if (resumedAt === 0) resumedAt = receivedAt;
  };
  const sentAt = now();
  const ack = await withTimeout(watcher.device.request(command), RESUME_TIMEOUT_MS, `${command.type} ack`);
  if (!ack.ok) throw new Error(`${command.type} was refused: ${JSON.stringify(ack.error)}`);
  await withTimeout(
    watcher.device.until(() => resumedAt !== 0),
    RESUME_TIMEOUT_MS,
    "the model did not resume",
  );
  watcher.listener = null;
  watcher.deltaListener = null;
  return resumedAt - sentAt;
}

/**
 * @param {import("../lib/targets.mjs").ParleyTarget} parley
 * @param {"question" | "approval"} kind
 */
async function pausedSession(parley, kind) {
  const session = await parley.createSession({
    permissionMode: "default",
    script: [
      kind === "question" ? questionReply("toolu_bench_q") : approvalReply("toolu_bench_a"),
      textReply("Thanks, carrying on.", { firstTextAlone: true }),
    ],
  });
  const watcher = await SessionDevice.open(parley, session, { device: "answerer" });
  const toolCallId = await watcher.askAndPause(
    "Please decide.",
    kind === "question" ? "question_prompt" : "approval_required",
  );
  return { session, watcher, toolCallId };
}

/**
 * @param {string} toolCallId
 * @param {"question" | "approval"} kind
 */
function resolving(toolCallId, kind) {
  return kind === "question"
    ? { type: "submit_answers", toolCallId, answers: ANSWERS }
    : { type: "approve", toolCallId };
}

/**
 * @param {import("../lib/targets.mjs").ParleyTarget} parley
 * @param {"question" | "approval"} kind
 * @param {number} [reactionMs] how long after the card showed the answer is sent
 */
async function resumeOnce(parley, kind, reactionMs = REACTION_MS) {
  const { watcher, toolCallId } = await pausedSession(parley, kind);
  if (reactionMs > 0) await sleep(reactionMs);
  try {
    return await timeResume(watcher, resolving(toolCallId, kind));
  } finally {
    await watcher.close();
  }
}

/**
 * The floor: one command to a bare object and the broadcast it causes.
 * @param {import("../lib/targets.mjs").BareTarget} bare
 */
export async function bareRoundTrip(bare) {
  let echoedAt = 0;
  const device = await Device.connect(bare.socketUrl(uniqueName("echo")), {
    onEvent: (event, receivedAt) => {
      if (event.type === "echo") echoedAt = receivedAt;
    },
  });
  try {
    const sentAt = now();
    await device.request({ type: "echo" });
    await withTimeout(
      device.until(() => echoedAt !== 0),
      RESUME_TIMEOUT_MS,
      "bare echo",
    );
    return echoedAt - sentAt;
  } finally {
    await device.close();
  }
}

/**
 * Pauses 1 + 2 × `count` sessions, restarts the server, then for each session: reconnects a device
 * (timed to its hello, which must list the pending question) and answers. The first session starts
 * the isolate; the next `count` are timed as the fresh process's first answers; the last `count`
 * are each still an object built again from storage, on a process that has warmed up.
 *
 * Why two sets: a restarted process runs Parley's code in V8's interpreter until the code has run
 * often enough to be compiled, and in runs of 20 answers after a restart the first eight or so took
 * 8–15 ms and the rest 6–8 ms, with each object equally cold. Timing only the first answers measures
 * that tiering as much as rebuilding a session from storage, so they get a figure of their own.
 * @param {{ parley: import("../lib/targets.mjs").ParleyTarget, restartParley: () => Promise<import("../lib/targets.mjs").ParleyTarget> }} servers
 * @param {number} count
 * @param {(line: string) => void} log
 */
async function afterRestart({ parley, restartParley }, count, log) {
  const paused = [];
  for (let i = 0; i <= 2 * count; i++) {
    const { session, watcher, toolCallId } = await pausedSession(parley, "question");
    paused.push({ session, toolCallId, lastSeq: watcher.device.lastSeq });
    await watcher.close();
  }
  log("resume: restarting wrangler dev with the same state directory");
  const restarted = await restartParley();
  /** @type {number[]} */ const warming = [];
  /** @type {number[]} */ const reconnects = [];
  /** @type {number[]} */ const resumes = [];
  for (const [i, { session, toolCallId, lastSeq }] of paused.entries()) {
    const start = now();
    const watcher = await SessionDevice.open(restarted, session, { after: lastSeq, device: "answerer" });
    const reconnectMs = now() - start;
    try {
      const snapshot = watcher.device.hello.snapshot;
      const waiting = snapshot.pending.some((/** @type {any} */ p) => p.toolCallId === toolCallId);
      if (!waiting || snapshot.status !== "awaiting_input") {
        throw new Error(
          `after the restart the session is "${snapshot.status}" and its question is ${waiting ? "" : "not "}pending`,
        );
      }
      const resumeMs = await timeResume(watcher, resolving(toolCallId, "question"));
      if (i === 0) continue; // the first request after a restart also starts the isolate
      if (i <= count) {
        warming.push(resumeMs);
        continue;
      }
      reconnects.push(reconnectMs);
      resumes.push(resumeMs);
    } finally {
      await watcher.close();
    }
  }
  return { warming, reconnects, resumes };
}

/**
 * @param {{ parley: import("../lib/targets.mjs").ParleyTarget, bare: import("../lib/targets.mjs").BareTarget, restartParley: () => Promise<import("../lib/targets.mjs").ParleyTarget>, options: ResumeOptions, log: (line: string) => void }} context
 * @returns {Promise<import("../lib/figures.mjs").Figure[]>}
 */
export async function runResume({ parley, bare, restartParley, options, log }) {
  const scenario = "4. Answer-to-resume";
  log("resume: answer and approval on a live object");
  const question = await alternate(
    options.repeats,
    () => bareRoundTrip(bare),
    () => resumeOnce(parley, "question"),
  );
  const approval = await alternate(
    options.repeats,
    () => bareRoundTrip(bare),
    () => resumeOnce(parley, "approval"),
  );
  // The same answers sent the moment the card shows, inside the tail of the step that opened it.
  const questionAtOnce = await alternate(
    options.repeats,
    () => bareRoundTrip(bare),
    () => resumeOnce(parley, "question", 0),
  );
  const approvalAtOnce = await alternate(
    options.repeats,
    () => bareRoundTrip(bare),
    () => resumeOnce(parley, "approval", 0),
  );
  // Every alternation times the same bare round trip, so their samples are one floor: its median
  // over all is steadier than each part's (one run had 1.77 ms against 2.39 ms for two halves).
  const floor = [...question.bare, ...approval.bare, ...questionAtOnce.bare, ...approvalAtOnce.bare];
  const figures = [
    figure({
      scenario,
      label: "answer (AskUserQuestion) → first text of the next model call",
      unit: "ms",
      parley: question.parley,
      bare: floor,
      target: { ratioAtMost: 3 },
    }),
    figure({
      scenario,
      label: "approval → tool runs → first text of the next model call",
      unit: "ms",
      parley: approval.parley,
      bare: floor,
      target: { ratioAtMost: 3 },
    }),
    figure({
      scenario,
      label: "answer sent the moment its card shows → first text (the step's tail included)",
      unit: "ms",
      parley: questionAtOnce.parley,
      bare: floor,
    }),
    figure({
      scenario,
      label: "approval sent the moment its card shows → first text (the step's tail included)",
      unit: "ms",
      parley: approvalAtOnce.parley,
      bare: floor,
    }),
  ];
  if (options.eviction) {
    const evicted = await afterRestart({ parley, restartParley }, options.repeats, log);
    figures.push(
      figure({
        scenario,
        label: "after a restart: the question is still pending and its answer resumes the turn",
        unit: "yes/no",
        // afterRestart throws unless every session passed both checks.
        parley: [...evicted.warming, ...evicted.resumes].map(() => 1),
        target: { equals: 1 },
        aggregate: "worst",
        better: "higher",
      }),
      figure({
        scenario,
        label: "after a restart: reconnect until hello lists the pending question",
        unit: "ms",
        parley: evicted.reconnects,
      }),
      figure({
        scenario,
        label:
          "after a restart: answer → first text, the fresh process's first answers (its code not yet compiled)",
        unit: "ms",
        parley: evicted.warming,
        bare: floor,
      }),
      figure({
        scenario,
        label:
          "after a restart: answer → first text of the next model call (object built again from storage)",
        unit: "ms",
        parley: evicted.resumes,
        bare: floor,
        target: { ratioAtMost: 4 },
      }),
    );
  }
  return figures;
}
