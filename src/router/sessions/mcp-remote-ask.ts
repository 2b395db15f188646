// One permission request through the Worker's remote MCP endpoint: the bridge's own ask
// (src/bridge/claude-ask.ts) over a line that holds the call in long-poll reads of the session
// object. The wait lives in this HTTP response, so an object that restarts is read again, but a
// Worker or connection that goes away ends the call; the card stays for a repeat to re-attach.
import type { PermissionPromptInput } from "../../bridge/approve-tool";
import type { CardLine, KeyedCard } from "../../bridge/card-wait";
import { askClaude } from "../../bridge/claude-ask";
import type { PermissionDecision } from "../../bridge/claude-decision";
import type { Outcome } from "../../objects/outcome";
import { Refusal } from "../../objects/refusal";
import type { ExternalInteraction, OpenedInteraction } from "../../protocol/external/external";

/** The session as the endpoint reaches it: each call may go to a fresh stub. */
export interface RemoteSession {
  open(body: KeyedCard): Promise<Outcome<OpenedInteraction>>;
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

/** The client gave up on the call; the card stays open. */
class CallCancelled extends Error {}

/** Runs `attempt`, trying a failing object again with back-off; throws SessionLost at the end. */
async function reach<T>(
  attempt: () => Promise<Outcome<T>>,
  pause: (ms: number) => Promise<void>,
): Promise<T> {
  for (let tries = 0; ; tries++) {
    let outcome: Outcome<T>;
    try {
      outcome = await attempt();
    } catch (error) {
      const delay = RETRY_DELAYS_MS[tries];
      if (delay === undefined) throw new SessionLost(error instanceof Error ? error.message : String(error));
      await pause(delay);
      continue;
    }
    // The session answered with an error: the request is refused, not lost.
    if (!outcome.ok) throw Refusal.from(outcome.error);
    return outcome.result;
  }
}

/** The session object as a bridge's line: open, then long-poll rounds until the card resolves. */
function remoteLine(session: RemoteSession, options: RemoteAskOptions): CardLine {
  const pause = options.pause ?? realPause;
  const roundMs = options.roundMs ?? ROUND_MS;
  return {
    open: (card) => reach(() => session.open(card), pause),
    wait: async (interactionId, signal) => {
      for (;;) {
        if (signal?.aborted) throw new CallCancelled();
        const state = await reach(() => roundOf(session, interactionId, roundMs, signal), pause);
        if (state.status === "resolved") return state;
      }
    },
  };
}

/** Asks the person; resolves with their decision, or with the reason the call cannot wait on. */
export async function askRemotely(
  session: RemoteSession,
  args: PermissionPromptInput,
  options: RemoteAskOptions = {},
): Promise<RemoteAnswer> {
  try {
    const decision = await askClaude(remoteLine(session, options), {
      toolName: args.tool_name,
      input: args.input,
      toolUseId: args.tool_use_id,
      plan: REMOTE_PLAN_MISSING,
      suggestions: args.permission_suggestions,
      signal: options.signal,
    });
    return { decision };
  } catch (error) {
    if (error instanceof Refusal) {
      const { code, message } = error;
      return {
        decision: {
          behavior: "deny",
          message: `Parley refused the request (${code}: ${message}). The tool was not run.`,
        },
      };
    }
    if (error instanceof SessionLost) return lost(error.message);
    if (error instanceof CallCancelled) return { error: "The call was cancelled; the card stays open." };
    throw error;
  }
}

function lost(why: string): RemoteAnswer {
  return {
    error:
      `The connection between Parley's endpoint and this session was lost while waiting for the ` +
      `person's answer (${why}). The card stays open on their devices; call approve again with the ` +
      `same tool_use_id to wait for it again. The tool was not run.`,
  };
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
