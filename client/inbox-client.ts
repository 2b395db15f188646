// One device's live link to a person's inbox: opens the inbox WebSocket with a single-use ticket
// (so no credential appears in a URL), gets the view in `hello`, then every change; reconnects
// with backoff from the last seq it saw. Runs in browsers and in Node 22 (global WebSocket).
import type { InboxChatLink, InboxEvent, InboxView } from "../src/protocol/index";
import { type InboxTarget, requestInboxTicket } from "./inbox-api";
import { applyInboxEvent } from "./inbox-state";
import { ApiError } from "./session-api";
import { backoffDelay, type SocketLike } from "./session-socket";

export interface InboxClientOptions extends InboxTarget {
  createSocket?: (url: string) => SocketLike;
  backoffInitialMs?: number;
  backoffMaxMs?: number;
}

interface Listeners {
  /** The whole inbox, after the first hello and after every change. */
  view: (view: InboxView) => void;
  /** Each change as it arrives (before the view it leads to is published). */
  event: (event: InboxEvent) => void;
  /** The server ended this device's access for good (a revoked or expired inbox link). */
  ended: (reason: string) => void;
  connected: (connected: boolean) => void;
}

/** Close codes after which reconnecting is pointless (the server's `SOCKET_CLOSE`). */
const FINAL_CLOSE: Record<number, string> = {
  4001: "This inbox link was revoked.",
  4002: "This inbox link has expired.",
};

export class InboxClient {
  private socket: SocketLike | null = null;
  private current: InboxView | null = null;
  private attempt = 0;
  private stopped = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners: { [K in keyof Listeners]: Set<Listeners[K]> } = {
    view: new Set(),
    event: new Set(),
    ended: new Set(),
    connected: new Set(),
  };

  constructor(private readonly options: InboxClientOptions) {}

  get view(): InboxView | null {
    return this.current;
  }

  on<K extends keyof Listeners>(name: K, listener: Listeners[K]): () => void {
    this.listeners[name].add(listener);
    return () => this.listeners[name].delete(listener);
  }

  connect(): void {
    if (this.stopped || this.socket) return;
    requestInboxTicket(this.options).then(
      ({ ticket }) => {
        if (!this.stopped) this.open(ticket);
      },
      (error: unknown) => {
        // A refused credential will be refused again; anything else is worth another try.
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
          this.end(error.message);
        } else this.retry();
      },
    );
  }

  /** Reconnects at once (the page became visible, the network came back). */
  reconnectNow(): void {
    if (this.stopped || this.socket) return;
    clearTimeout(this.retryTimer);
    this.connect();
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.socket?.close(1000, "closed");
    this.socket = null;
  }

  private open(ticket: string): void {
    const url = new URL("/api/inbox/ws", this.options.baseUrl);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("ticket", ticket);
    url.searchParams.set("after", String(this.current?.lastSeq ?? 0));
    const socket = this.options.createSocket
      ? this.options.createSocket(url.toString())
      : (new WebSocket(url.toString()) as unknown as SocketLike);
    this.socket = socket;
    socket.onmessage = (event) => this.onMessage(event.data);
    socket.onerror = () => {};
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.emit("connected", false);
      const code = (event as { code?: number }).code;
      const final = typeof code === "number" ? FINAL_CLOSE[code] : undefined;
      if (final) this.end(final);
      else this.retry();
    };
  }

  private onMessage(data: unknown): void {
    if (typeof data !== "string") return;
    let frame: {
      type?: unknown;
      view?: InboxView;
      seq?: unknown;
      change?: unknown;
      links?: InboxChatLink[];
    };
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    if (frame.type === "hello" && frame.view) {
      this.attempt = 0;
      this.current = frame.view;
      this.emit("connected", true);
      this.emit("view", frame.view);
      return;
    }
    // The person's chat accounts, whole, the moment one is linked or unlinked (never an event).
    if (frame.type === "chat_links" && this.current && Array.isArray(frame.links)) {
      this.current = { ...this.current, chatLinks: frame.links };
      this.emit("view", this.current);
      return;
    }
    if (!this.current || typeof frame.seq !== "number" || typeof frame.change !== "object") return;
    const event = frame as InboxEvent;
    const next = applyInboxEvent(this.current, event);
    if (next === this.current) return;
    this.current = next;
    // The change first, so a page can show how a card ended before the view drops it.
    this.emit("event", event);
    this.emit("view", next);
  }

  private retry(): void {
    if (this.stopped) return;
    this.attempt += 1;
    const delay = backoffDelay(
      this.attempt,
      this.options.backoffInitialMs ?? 500,
      this.options.backoffMaxMs ?? 15_000,
    );
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  private end(reason: string): void {
    this.stopped = true;
    this.emit("ended", reason);
  }

  private emit<K extends keyof Listeners>(name: K, ...args: Parameters<Listeners[K]>): void {
    for (const listener of this.listeners[name]) (listener as (...a: typeof args) => void)(...args);
  }
}
