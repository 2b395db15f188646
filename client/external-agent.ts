// The typed client of an agent that runs outside Parley (Claude Code, an Agent SDK app): find or
// create its external session, open a card, wait for the card's resolution, withdraw it, post
// progress, and read the person's messages. The wait is a long-poll of the card by its id, read again
// after a dropped connection or a Parley restart, so neither loses an answer.
import type {
  AgentKeySessionResponse,
  CreateExternalSessionResponse,
  ExternalInteraction,
  OpenedInteraction,
  ProgressEvent,
} from "../src/protocol/external/external";
import {
  type AgentMessage,
  followMessages,
  type MessageStreamOptions,
  type ReadMessages,
} from "./agent-messages";
import { pollCard } from "./card-poll";
import { refuseAnsweringCredential } from "./credential-kind";
import { ApiError, call } from "./session-api";
import { buildShareUrl, parseShareLink } from "./session-link";
import { backoffDelay } from "./session-socket";

/** An interaction kind an agent may open. */
export type ExternalKind = "question" | "approval" | "form" | "plan" | "url";

export type { ExternalInteraction, ProgressEvent };
/** How a card ended, as the agent reads it. */
export type ExternalResolution = NonNullable<ExternalInteraction["resolution"]>;

export interface ExternalAgentOptions {
  /** The Parley origin, e.g. https://parley.example.com (needed unless `link` is given). */
  server?: string;
  /** The person's agent key (`pak_…`): creates or finds the session, and can do nothing else. */
  agentKey?: string;
  /**
   * Accepted only when it is an agent key: a credential that answers cards (the gateway token, an
   * owner token, an answer or inbox link) makes `connect` throw AnsweringCredentialError.
   */
  token?: string;
  /** An agent link (`https://host/#/s/<id>?token=<agent token>`) for an existing session. */
  link?: string;
  /** The agent's name, shown on its cards and progress. */
  name: string;
  /** The agent's own session id: the same key finds the same session again. */
  key?: string;
  title?: string;
  /** The folder the agent works in (absolute): the session's page says where it runs. */
  cwd?: string;
  fetch?: typeof fetch;
}

/** A link given to a bridge that does not open a session (exit code 2 territory). */
export class BadLinkError extends Error {
  override readonly name = "BadLinkError";
}

/** Parley could not be reached (network error or a 5xx) within the allowed time. */
export class UnreachableError extends Error {
  override readonly name = "UnreachableError";
}

/** An open that hangs (a half-open connection) is given up and made again, within its deadline. */
const READ_TIMEOUT_MS = 15_000;

function isRetryable(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500 || error.status === 429;
  return !(error instanceof BadLinkError) && !(error instanceof DOMException && error.name === "AbortError");
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs `attempt` until it succeeds, retrying network errors and 5xx answers with backoff until
 * `deadline` (epoch ms); then throws an UnreachableError naming the last failure.
 */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  deadline: number,
  signal?: AbortSignal,
  now: () => number = Date.now,
): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isRetryable(error) || signal?.aborted) throw error;
      const delay = backoffDelay(tries, 250, 5_000);
      if (now() + delay > deadline) {
        const why = error instanceof Error ? error.message : String(error);
        throw new UnreachableError(`Parley could not be reached: ${why}`);
      }
      await sleep(delay, signal);
    }
  }
}

/** One external agent's handle on its Parley session. */
export class ExternalAgent {
  private constructor(
    readonly baseUrl: string,
    readonly sessionId: string,
    /** The agent-role token every call carries. */
    readonly agentToken: string,
    /** The owner's link for people, when this agent created the session; else the session's address. */
    readonly personLink: string | null,
    private readonly options: ExternalAgentOptions,
  ) {}

  private get fetchImpl(): typeof fetch {
    return this.options.fetch ?? fetch;
  }

  /**
   * Finds or creates the session: with `link`, checks that the link opens it; else creates (or
   * finds, by `key`) an external session with the gateway token. Bad links throw BadLinkError;
   * an unreachable Parley is retried until `deadline`.
   */
  static async connect(
    options: ExternalAgentOptions,
    deadline = Date.now() + 10_000,
  ): Promise<ExternalAgent> {
    // Every bridge comes through here, so none can be started with a credential that answers.
    refuseAnsweringCredential(options);
    const fetchImpl = options.fetch ?? fetch;
    if (options.link) {
      const route = parseShareLink(options.link);
      if (!route) throw new BadLinkError(`not a Parley link: ${options.link}`);
      const url = new URL(`/api/sessions/${encodeURIComponent(route.sessionId)}`, route.baseUrl);
      await withRetry(
        () => call(url.toString(), { headers: { authorization: `Bearer ${route.token}` } }, fetchImpl),
        deadline,
      ).catch((error: unknown) => {
        if (error instanceof ApiError && error.status < 500)
          throw new BadLinkError(`this link does not open a session: ${error.message}`);
        throw error;
      });
      return new ExternalAgent(route.baseUrl, route.sessionId, route.token, null, options);
    }
    if (!options.server) throw new BadLinkError("give the Parley server's address or an agent link");
    const baseUrl = new URL(options.server).origin;
    const headers: Record<string, string> = { "content-type": "application/json" };
    const credential = options.agentKey || options.token;
    if (credential) headers.authorization = `Bearer ${credential}`;
    const agent = {
      kind: "external",
      name: options.name,
      ...(options.key ? { key: options.key } : {}),
      ...(options.title ? { title: options.title } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
    };
    const created = await withRetry(
      () =>
        call<CreateExternalSessionResponse | AgentKeySessionResponse>(
          new URL("/api/sessions", baseUrl).toString(),
          {
            method: "POST",
            headers,
            body: JSON.stringify({ agent }),
          },
          fetchImpl,
        ),
      deadline,
    ).catch((error: unknown) => {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403))
        throw new BadLinkError(`Parley refused the token: ${error.message}`);
      throw error;
    });
    // Made with an agent key, the answer holds no owner token: people open the session from their inbox.
    const personLink =
      "token" in created
        ? buildShareUrl(baseUrl, { sessionId: created.sessionId, token: created.token })
        : null;
    return new ExternalAgent(baseUrl, created.sessionId, created.agentToken, personLink, options);
  }

  private url(path: string): string {
    return new URL(`/api/sessions/${encodeURIComponent(this.sessionId)}${path}`, this.baseUrl).toString();
  }

  private headers(): Record<string, string> {
    return { authorization: `Bearer ${this.agentToken}`, "content-type": "application/json" };
  }

  /** Opens a card; the same `key` and request return the same card, also after it resolved (another request: `key_conflict`). */
  openInteraction(
    input: { kind: ExternalKind; request: unknown; key?: string; timeoutMs?: number; cwd?: string },
    deadline = Date.now() + 10_000,
    signal?: AbortSignal,
  ): Promise<OpenedInteraction> {
    return withRetry(
      () =>
        call(
          this.url("/interactions"),
          {
            method: "POST",
            headers: this.headers(),
            body: JSON.stringify(input),
            // Each attempt gives up on a connection that hangs; the caller's abort ends them all.
            signal: signal
              ? AbortSignal.any([signal, AbortSignal.timeout(READ_TIMEOUT_MS)])
              : AbortSignal.timeout(READ_TIMEOUT_MS),
          },
          this.fetchImpl,
        ),
      deadline,
      signal,
    );
  }

  /** Reads a card once; with `waitSeconds` (≤ 60) the server holds the answer until it resolves. */
  getInteraction(
    interactionId: string,
    waitSeconds?: number,
    signal?: AbortSignal,
  ): Promise<ExternalInteraction> {
    const query = waitSeconds ? `?wait=${waitSeconds}` : "";
    return call(
      this.url(`/interactions/${encodeURIComponent(interactionId)}${query}`),
      {
        headers: this.headers(),
        ...(signal ? { signal } : {}),
      },
      this.fetchImpl,
    );
  }

  /** The agent gave up on a card: it is cancelled on every device. */
  async withdraw(interactionId: string): Promise<void> {
    await call(
      this.url(`/interactions/${encodeURIComponent(interactionId)}`),
      {
        method: "DELETE",
        headers: this.headers(),
      },
      this.fetchImpl,
    ).catch((error: unknown) => {
      // A card that resolved in the meantime stays as it is.
      if (!(error instanceof ApiError && error.status === 409)) throw error;
    });
  }

  /** Tells devices what the agent is doing. */
  async postProgress(events: ProgressEvent[], deadline = Date.now() + 5_000): Promise<void> {
    await withRetry(
      () =>
        call(
          this.url("/progress"),
          {
            method: "POST",
            headers: this.headers(),
            body: JSON.stringify({ events }),
          },
          this.fetchImpl,
        ),
      deadline,
    );
  }

  /**
   * The person's messages to this agent, in order, as an async iterator that waits for each next
   * one; it resumes after the last one it yielded across dropped connections and Parley restarts,
   * and ends when the person stops the session (client/agent-messages.ts). Acknowledge each with
   * `delivered` once the agent has it.
   */
  messages(options: MessageStreamOptions = {}): AsyncGenerator<AgentMessage, void, undefined> {
    const read: ReadMessages = ({ after, waitSeconds }, signal) => {
      const query = new URLSearchParams({ wait: String(waitSeconds), ...(after ? { after } : {}) });
      return call(this.url(`/messages?${query}`), { headers: this.headers(), signal }, this.fetchImpl);
    };
    return followMessages(read, options, (why) => new UnreachableError(why));
  }

  /** Tells every device the agent has message `messageId`; `bridge` names what handed it over. */
  async delivered(messageId: string, bridge: string, deadline = Date.now() + 10_000): Promise<void> {
    await withRetry(
      () =>
        call(
          this.url(`/messages/${encodeURIComponent(messageId)}/delivered`),
          {
            method: "POST",
            headers: this.headers(),
            body: JSON.stringify({ bridge }),
          },
          this.fetchImpl,
        ),
      deadline,
    );
  }

  /**
   * Waits until the card resolves, however long that takes, with one long-poll read of the card
   * after another (client/card-poll.ts): a read lost on the network or to a Parley restart is made
   * again, so an answer given meanwhile is found by the next. Rejects with the signal's reason on
   * abort, a BadLinkError when the link stops working for good (revoked, expired, session deleted),
   * or an UnreachableError once Parley has been out of reach for `unreachableMs` in a row.
   */
  waitForResolution(
    interactionId: string,
    signal?: AbortSignal,
    unreachableMs = Number.POSITIVE_INFINITY,
  ): Promise<ExternalInteraction> {
    return pollCard((waitSeconds, read) => this.getInteraction(interactionId, waitSeconds, read), {
      signal,
      unreachableMs,
      refused: (why) => new BadLinkError(why),
      unreachable: (why) => new UnreachableError(why),
    });
  }
}
