// A bridge's one wait for a card's resolution: one long-poll read of the card after another, each
// held by the server until the card resolves or the wait runs out. Every read asks for the card by
// its id, so a dropped connection or a Parley restart mid-wait loses nothing: the next read finds it.
import type { ExternalInteraction } from "../src/protocol/external/external";
import { pause, READ_GRACE_MS, READ_WAIT_SECONDS } from "./long-poll";
import { ApiError } from "./session-api";
import { backoffDelay } from "./session-socket";

/** How the wait reads the card: `GET …/interactions/<id>?wait=` with the agent's credential. */
export type ReadCard = (waitSeconds: number, signal: AbortSignal) => Promise<ExternalInteraction>;

export interface CardPollOptions {
  signal?: AbortSignal | undefined;
  /** Rejects with `unreachable(why)` once Parley has been out of reach this long in a row. */
  unreachableMs?: number | undefined;
  /** How long the server holds each read, in seconds (≤ 60). */
  waitSeconds?: number | undefined;
  /** What a refusal for good becomes (a revoked link, a deleted session): the bridge's own error. */
  refused: (why: string) => Error;
  unreachable: (why: string) => Error;
  now?: () => number;
}

/** Whether a failed read is worth making again: the network, a 5xx, a 429 or a read given up. */
function isRetryable(error: unknown): boolean {
  return !(error instanceof ApiError) || error.status >= 500 || error.status === 429;
}

/**
 * Resolves with the card once it is resolved, however long that takes. Network errors, 5xx and
 * 429 answers are read again with backoff; an unknown card rejects with its 404 ApiError; any other
 * refusal (a revoked link, a deleted session) with `refused`; an abort with the signal's reason.
 */
export async function pollCard(read: ReadCard, options: CardPollOptions): Promise<ExternalInteraction> {
  const { signal } = options;
  const now = options.now ?? Date.now;
  const waitSeconds = options.waitSeconds ?? READ_WAIT_SECONDS;
  const limit = options.unreachableMs ?? Number.POSITIVE_INFINITY;
  let failures = 0;
  let outageSince: number | null = null;
  for (;;) {
    if (signal?.aborted) throw signal.reason;
    try {
      const timeout = AbortSignal.timeout(waitSeconds * 1000 + READ_GRACE_MS);
      const card = await read(waitSeconds, signal ? AbortSignal.any([signal, timeout]) : timeout);
      if (card.status === "resolved") return card;
      failures = 0;
      outageSince = null;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof ApiError && error.status === 404 && error.code !== "unknown_session") throw error;
      if (!isRetryable(error)) throw options.refused(error instanceof Error ? error.message : String(error));
      failures += 1;
      outageSince ??= now();
      if (now() - outageSince >= limit) {
        const why = error instanceof Error ? error.message : String(error);
        throw options.unreachable(`Parley could not be reached for ${Math.round(limit / 1000)} s: ${why}`);
      }
      await pause(backoffDelay(failures, 250, 5_000), signal);
    }
  }
}
