// The person's messages as an external agent reads them: one long-poll after another, each after
// the last message it yielded, so a dropped connection or a Parley restart neither loses nor
// repeats one. It ends once the person stops the session.
import type { AgentMessage, AgentMessagesPage } from "../src/protocol/external/agent-messages";
import { pause, READ_GRACE_MS, READ_WAIT_SECONDS } from "./long-poll";
import { ApiError } from "./session-api";
import { backoffDelay } from "./session-socket";

export type { AgentMessage, AgentMessagesPage };

export interface MessageStreamOptions {
  /** Start after this message (one an earlier run yielded); without it, the messages not yet delivered. */
  after?: string;
  /** Ends the iteration (the iterator returns, it does not throw). */
  signal?: AbortSignal;
  /** Throw an UnreachableError once Parley has been out of reach this long in a row (default: never). */
  unreachableMs?: number;
  /** How long the server holds each read, in seconds (≤ 60). */
  waitSeconds?: number;
}

/** How the iterator reads a page: `GET …/messages?after=&wait=` with the agent's credential. */
export type ReadMessages = (
  query: { after: string | undefined; waitSeconds: number },
  signal: AbortSignal,
) => Promise<AgentMessagesPage>;

/**
 * Yields each message the person sends, in order, waiting as long as it takes for the next one.
 * Network errors, 5xx and 429 answers are retried with backoff; any other refusal (a revoked link,
 * a deleted session) is thrown as the ApiError it is.
 */
export async function* followMessages(
  read: ReadMessages,
  options: MessageStreamOptions,
  unreachable: (why: string) => Error,
  now: () => number = Date.now,
): AsyncGenerator<AgentMessage, void, undefined> {
  const { signal } = options;
  const waitSeconds = options.waitSeconds ?? READ_WAIT_SECONDS;
  let cursor = options.after;
  let failures = 0;
  let outageSince: number | null = null;
  while (!signal?.aborted) {
    let page: AgentMessagesPage;
    try {
      const timeout = AbortSignal.timeout(waitSeconds * 1000 + READ_GRACE_MS);
      page = await read(
        { after: cursor, waitSeconds },
        signal ? AbortSignal.any([signal, timeout]) : timeout,
      );
    } catch (error) {
      if (signal?.aborted) return;
      const retryable = !(error instanceof ApiError) || error.status >= 500 || error.status === 429;
      if (!retryable) throw error;
      failures += 1;
      outageSince ??= now();
      const limit = options.unreachableMs ?? Number.POSITIVE_INFINITY;
      if (now() - outageSince >= limit) {
        const why = error instanceof Error ? error.message : String(error);
        throw unreachable(`Parley could not be reached for ${Math.round(limit / 1000)} s: ${why}`);
      }
      await pause(backoffDelay(failures, 250, 5_000), signal);
      continue;
    }
    failures = 0;
    outageSince = null;
    for (const message of page.messages) {
      if (signal?.aborted) return;
      cursor = message.messageId;
      yield message;
    }
    if (page.stopped && page.messages.length === 0) return;
  }
}
