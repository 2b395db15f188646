// One permission request through the Worker's remote MCP endpoint: open the card (keyed by
// Claude Code's tool_use_id, so a repeat call re-attaches), hold the call while the session waits
// for the person, and answer with Claude Code's decision. The wait lives in this HTTP response, so
// an object that restarts is read again, but a Worker or connection that goes away ends the call.
import type { PermissionPromptInput } from "../../client/claude-approve-tool";
import { cardFor, decisionFor, type PermissionDecision } from "../../client/claude-permissions";
import type { Outcome } from "../objects/outcome";
import type { ErrorBody } from "../protocol/errors";
import type { ExternalInteraction, OpenedInteraction } from "../protocol/external";

/** The session as the endpoint reaches it: each call may go to a fresh stub. */
export interface RemoteSession {
  open(body: { kind: string; request: unknown; key: string }): Promise<Outcome<OpenedInteraction>>;
  /** Reads the card, after waiting up to `waitMs` for it to resolve. */
  read(interactionId: string, waitMs: number): Promise<Outcome<ExternalInteraction>>;
}

export interface RemoteAskOptions {
  signal?: AbortSignal | undefined;
  /** How long one read waits in the object before the Worker asks again. */
  roundMs?: number;
  /** Pauses between attempts to reach an object that failed; injected by tests. */
  pause?: (ms: number) => Promise<void>;
}

/** The call ended without a decision: the text says why and what a repeat does. */
export type RemoteAnswer = { decision: PermissionDecision } | { error: string };

/** Claude Code keeps its plan in a file on its own machine, which this endpoint cannot read. */
export const REMOTE_PLAN_MISSING =
  "Claude Code asks to leave plan mode, but did not send its plan with the request, and Parley's " +
  "remote endpoint cannot read the plan file on Claude Code's machine. Ask for the plan in the " +
  "terminal before approving (the local bridge, `parley mcp`, shows it here).";

const ROUND_MS = 50_000;
/** How much longer than a round the Worker waits before it reads the card itself. */
const ROUND_GRACE_MS = 1_000;
/** Back-off between attempts to reach a session object that failed (a restart, a reset). */
const RETRY_DELAYS_MS = [250, 500, 1_000, 2_000, 4_000];

const realPause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

class SessionLost extends Error {}

/** Runs `attempt`, trying a failing object again with back-off; throws SessionLost at the end. */
async function reach<T>(
  attempt: () => Promise<Outcome<T>>,
  pause: (ms: number) => Promise<void>,
): Promise<Outcome<T>> {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      const delay = RETRY_DELAYS_MS[tries];
      if (delay === undefined) throw new SessionLost(error instanceof Error ? error.message : String(error));
      await pause(delay);
    }
  }
}

function refused(error: ErrorBody): RemoteAnswer {
  return {
    decision: {
      behavior: "deny",
      message: `Parley refused the request (${error.code}: ${error.message}). The tool was not run.`,
    },
  };
}

function lost(why: string): RemoteAnswer {
  return {
    error:
      `The connection between Parley's endpoint and this session was lost while waiting for the ` +
      `person's answer (${why}). The card stays open on their devices; call approve again with the ` +
      `same tool_use_id to wait for it again. The tool was not run.`,
  };
}

/** Asks the person; resolves with their decision, or with the reason the call cannot wait on. */
export async function askRemotely(
  session: RemoteSession,
  args: PermissionPromptInput,
  options: RemoteAskOptions = {},
): Promise<RemoteAnswer> {
  const pause = options.pause ?? realPause;
  const roundMs = options.roundMs ?? ROUND_MS;
  const card = cardFor(args.tool_name, args.input, REMOTE_PLAN_MISSING);
  // Without Claude Code's id, a key of this call's own still makes a retried open find its card.
  const key = (args.tool_use_id || `ask-${crypto.randomUUID()}`).slice(0, 200);
  try {
    const opened = await reach(() => session.open({ ...card, key }), pause);
    if (!opened.ok) return refused(opened.error);
    const { interactionId } = opened.result;
    for (;;) {
      if (options.signal?.aborted) return { error: "The call was cancelled; the card stays open." };
      const read = await reach(() => roundOf(session, interactionId, roundMs, options.signal), pause);
      if (!read.ok) return refused(read.error);
      const state = read.result;
      if (state.status === "resolved") return { decision: decisionFor(args.input, state) };
    }
  } catch (error) {
    if (error instanceof SessionLost) return lost(error.message);
    throw error;
  }
}

/**
 * One round of the wait. The object holds it; the Worker holds the time limit, so a waiter lost
 * with the object still ends on time and the next round reads the stored card. A call the client
 * gave up on ends its round at once.
 */
async function roundOf(session: RemoteSession, interactionId: string, roundMs: number, signal?: AbortSignal) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = () => {};
  const timeUp = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), roundMs + ROUND_GRACE_MS);
    onAbort = () => resolve(null);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return (
      (await Promise.race([session.read(interactionId, roundMs), timeUp])) ?? session.read(interactionId, 0)
    );
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}
