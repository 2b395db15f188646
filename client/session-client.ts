// One device's live link to a session: opens the WebSocket with a single-use ticket it asks for
// with the session token (so the token never appears in a URL), resumes from
// the last seen seq on every (re)connect, dedupes events, keeps the socket alive with pings,
// reconnects with backoff, queues commands while disconnected and turns acks into promises.
// Runs in browsers and in Node (pass `createSocket`, e.g. the `ws` package).
import type { AckFrame, ClientCommand, DeltaFrame, HelloFrame, SessionEvent } from "../src/protocol/index";
import { ApiError, requestTicket } from "./session-api";
import { backoffDelay, parseFrame, type SocketLike, socketUrl } from "./session-socket";

export type ConnectionState = "connecting" | "connected" | "reconnecting" | "offline" | "closed";
export interface ConnectionInfo {
  state: ConnectionState;
  /** Failed attempts since the last successful hello. */
  attempt: number;
  /** When the next attempt starts (local ms), while reconnecting. */
  retryAt: number | null;
}

type WithoutRequestId<T> = T extends unknown ? Omit<T, "requestId"> : never;
/** A command as callers write it; the client adds the `requestId`. */
export type CommandInput = WithoutRequestId<Exclude<ClientCommand, { type: "resume" }>>;

/** What an acknowledged command returns. A 409 `already_resolved` counts as success. */
export interface CommandOutcome {
  result: unknown;
  alreadyResolved: boolean;
  resolution?: unknown;
}

/** A command the server refused; carries the protocol error code. */
export class CommandError extends Error {
  override readonly name = "CommandError";
  constructor(
    readonly code: string,
    message: string,
    readonly resolution?: unknown,
    /** For `invalid_answer`: what is wrong with each field, for cards that show it inline. */
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export interface SessionClientOptions {
  /** `http(s)://host` the API is served from. */
  baseUrl: string;
  sessionId: string;
  token: string;
  deviceId: string;
  /** Which client this is, recorded with its answers (the server takes a page when absent). */
  client?: "page" | "terminal";
  /** Resume after this seq on the first connect (0 = full history). */
  after?: number;
  createSocket?: (url: string) => SocketLike;
  /**
   * Asks for the single-use ticket each connection's URL carries. Default: `POST …/ws-ticket` with
   * the token, unless `createSocket` is given (a socket that may send headers): then the URL
   * carries the token, as before tickets existed.
   */
  ticket?: () => Promise<string>;
  /** Asked before each reconnect; when false the state shows `offline`. */
  isOnline?: () => boolean;
  pingIntervalMs?: number;
  pongTimeoutMs?: number;
  backoffInitialMs?: number;
  backoffMaxMs?: number;
}

/** Close codes after which reconnecting is pointless (the server's `SOCKET_CLOSE`). */
const FINAL_CLOSE: Record<number, string> = {
  4001: "This share link was revoked by the session's owner.",
  4002: "This share link has expired.",
  4004: "This session was deleted.",
};

interface Listeners {
  /** The server ended this device's access for good; the client stops reconnecting. */
  ended: (reason: string) => void;
  hello: (frame: HelloFrame) => void;
  events: (events: SessionEvent[]) => void;
  /** Live model output; merge it by offset (`mergeText`), since stored copies follow. */
  delta: (frame: DeltaFrame) => void;
  connection: (info: ConnectionInfo) => void;
}
interface Pending {
  command: ClientCommand & { requestId: string };
  resolve: (outcome: CommandOutcome) => void;
  reject: (error: Error) => void;
  sent: boolean;
}

export class SessionClient {
  private socket: SocketLike | null = null;
  private seq: number;
  private info: ConnectionInfo = { state: "closed", attempt: 0, retryAt: null };
  private ready = false;
  /** A `resume` for the rest of a long replay is on its way; see `onMessage`. */
  private continuing = false;
  private readonly pending = new Map<string, Pending>();
  private readonly listeners: { [K in keyof Listeners]: Set<Listeners[K]> } = {
    ended: new Set(),
    hello: new Set(),
    events: new Set(),
    delta: new Set(),
    connection: new Set(),
  };
  private nextRequest = 1;
  // Request ids stay unique across page loads, so the server can tell a resend from a new message.
  private readonly clientId = Math.random().toString(36).slice(2, 10);
  private stopped = false;
  /** A ticket is being asked for; the socket opens when it comes. */
  private opening = false;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private pongTimer: ReturnType<typeof setTimeout> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: SessionClientOptions) {
    this.seq = options.after ?? 0;
  }

  /** Highest event seq delivered to listeners. */
  get lastSeq(): number {
    return this.seq;
  }
  get connection(): ConnectionInfo {
    return this.info;
  }

  on<K extends keyof Listeners>(type: K, listener: Listeners[K]): () => void {
    this.listeners[type].add(listener);
    return () => this.listeners[type].delete(listener);
  }

  connect(): void {
    if (this.socket || this.opening) return;
    this.stopped = false;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const online = this.options.isOnline?.() ?? true;
    this.setState(this.info.attempt === 0 ? "connecting" : online ? "reconnecting" : "offline", null);
    const ticket =
      this.options.ticket ??
      (this.options.createSocket
        ? null
        : async () =>
            (await requestTicket(this.options.baseUrl, this.options.sessionId, this.options.token)).ticket);
    if (!ticket) {
      this.open({ token: this.options.token });
      return;
    }
    this.opening = true;
    ticket().then(
      (value) => {
        this.opening = false;
        if (!this.stopped) this.open({ ticket: value });
      },
      (error: unknown) => {
        this.opening = false;
        if (this.stopped) return;
        // A token the server refuses for good ends the session here, as a refused socket would.
        if (
          error instanceof ApiError &&
          (error.status === 401 || error.status === 403 || error.status === 404)
        ) {
          return this.end(error.message);
        }
        this.retryLater();
      },
    );
  }

  private open(credential: { ticket: string } | { token: string }): void {
    const create =
      this.options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
    const socket = create(socketUrl(this.options, credential, this.seq));
    this.socket = socket;
    socket.onmessage = (event) => this.onMessage(socket, event.data);
    socket.onclose = (event) => {
      const code = (event as { code?: unknown } | null)?.code;
      const final = typeof code === "number" ? FINAL_CLOSE[code] : undefined;
      if (final && socket === this.socket) return this.end(final);
      this.dropped(socket);
    };
    socket.onerror = () => this.dropped(socket);
    // A handshake that hangs counts as a dead socket too: no hello in time means try again.
    this.armPongDeadline(true);
  }

  /** Skips the backoff wait (e.g. when the browser comes back online or the tab is shown). */
  reconnectNow(): void {
    if (this.stopped || this.socket) return;
    this.connect();
  }

  /** Closes for good; unsent and unacknowledged commands are rejected. */
  close(): void {
    this.stopped = true;
    this.teardown();
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    for (const [id, entry] of this.pending) {
      this.pending.delete(id);
      entry.reject(new CommandError("closed", "The connection was closed."));
    }
    this.setState("closed", null);
  }

  /** Sends (or queues until connected) one command; resolves with its ack. */
  send(input: CommandInput): Promise<CommandOutcome> {
    const requestId = `${this.clientId}-${this.nextRequest++}`;
    const command = { ...input, requestId } as ClientCommand & { requestId: string };
    return new Promise((resolve, reject) => {
      const entry: Pending = { command, resolve, reject, sent: false };
      this.pending.set(requestId, entry);
      if (this.ready) this.transmit(entry);
    });
  }

  private transmit(entry: Pending): void {
    entry.sent = true;
    this.socket?.send(JSON.stringify(entry.command));
  }

  private onMessage(socket: SocketLike, data: unknown): void {
    if (socket !== this.socket) return;
    this.armPongDeadline(false);
    const frame = parseFrame(data);
    if (!frame || frame.kind === "pong") return;
    if (frame.kind === "hello") this.onHello(frame.hello);
    else if (frame.kind === "ack") this.onAck(frame.ack);
    else if (frame.kind === "delta") {
      // Merged by offset, a live delta needs no cursor: one past a gap waits for the gap to fill.
      for (const listener of this.listeners.delta) listener(frame.delta);
    } else {
      // Live events broadcast while the rest of a replay is requested lie beyond a gap; taking them
      // would move the cursor past events never seen. The replay answering `resume` includes them.
      if (this.continuing && !frame.replay) return;
      this.continuing = false;
      this.onEvents(frame.events);
      // The server replays a long history in parts: ask for the next one from where this ended.
      if (frame.more) {
        this.continuing = true;
        socket.send(JSON.stringify({ type: "resume", after: this.seq }));
      }
    }
  }

  private onEvents(events: SessionEvent[]): void {
    const fresh = events.filter((event) => event.seq > this.seq);
    if (fresh.length === 0) return;
    this.seq = fresh[fresh.length - 1]!.seq;
    for (const listener of this.listeners.events) listener(fresh);
  }

  private onHello(hello: HelloFrame): void {
    this.ready = true;
    this.info = { state: "connected", attempt: 0, retryAt: null };
    for (const listener of this.listeners.hello) listener(hello);
    this.emitConnection();
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => this.ping(), this.options.pingIntervalMs ?? 15_000);
    for (const entry of this.pending.values()) if (!entry.sent) this.transmit(entry);
  }

  private onAck(ack: AckFrame): void {
    const entry = ack.requestId ? this.pending.get(ack.requestId) : undefined;
    if (!entry || !ack.requestId) return;
    this.pending.delete(ack.requestId);
    const error = ack.error ?? { code: "internal", message: "The server refused the command." };
    if (ack.ok) entry.resolve({ result: ack.result, alreadyResolved: false });
    else if (error.code === "already_resolved") {
      entry.resolve({ result: undefined, alreadyResolved: true, resolution: error.resolution });
    } else entry.reject(new CommandError(error.code, error.message, error.resolution, error.fields));
  }

  private ping(): void {
    if (!this.socket || !this.ready) return;
    this.socket.send("ping");
    // The deadline runs from the first unanswered ping: a later ping must not push it back, or
    // pings more frequent than the deadline would keep a dead socket open forever.
    if (this.pongTimer === undefined) this.armPongDeadline(true);
  }

  /** Any frame proves the socket alive; a ping with no answer in time means it is dead. */
  private armPongDeadline(waiting: boolean): void {
    clearTimeout(this.pongTimer);
    this.pongTimer = undefined;
    if (!waiting) return;
    const socket = this.socket;
    this.pongTimer = setTimeout(() => socket && this.dropped(socket), this.options.pongTimeoutMs ?? 10_000);
  }

  private end(reason: string): void {
    this.close();
    for (const listener of this.listeners.ended) listener(reason);
  }

  private dropped(socket: SocketLike): void {
    if (socket !== this.socket) return;
    this.teardown();
    // Every unacknowledged command is resent with its original requestId after reconnecting: the
    // server answers a repeated message with its first result, and a repeated answer with
    // `already_resolved`, so nothing is lost and nothing is posted twice.
    for (const entry of this.pending.values()) entry.sent = false;
    this.retryLater();
  }

  private retryLater(): void {
    const attempt = this.info.attempt + 1;
    const delay = backoffDelay(
      attempt,
      this.options.backoffInitialMs ?? 500,
      this.options.backoffMaxMs ?? 15_000,
    );
    this.info = { ...this.info, attempt };
    const online = this.options.isOnline?.() ?? true;
    this.setState(online ? "reconnecting" : "offline", Date.now() + delay);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect();
    }, delay);
  }

  private teardown(): void {
    const socket = this.socket;
    this.socket = null;
    this.ready = false;
    this.continuing = false;
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    if (!socket) return;
    socket.onmessage = socket.onclose = socket.onerror = null;
    try {
      socket.close();
    } catch {
      // Closing a socket that never opened throws in some implementations; it is gone either way.
    }
  }

  private setState(state: ConnectionState, retryAt: number | null): void {
    this.info = { ...this.info, state, retryAt };
    this.emitConnection();
  }

  private emitConnection(): void {
    for (const listener of this.listeners.connection) listener(this.info);
  }
}
