// Replayed history per connection: each WebSocket may be sent at most REPLAY_BYTES_PER_MINUTE of
// stored events a minute, on connect and on `resume` together, so a flood of `resume` (each up to
// 4 MiB) cannot keep the session's object busy serializing its log for one client.

/** Bytes of replayed events one connection may receive per minute. */
export const REPLAY_BYTES_PER_MINUTE = 32 * 1024 * 1024;
const WINDOW_MS = 60_000;

interface Window {
  start: number;
  bytes: number;
}

export class ReplayBudget {
  // INVARIANT: per live socket of this instance; after hibernation a socket starts a fresh window,
  // which only ever lets an honest client through sooner.
  private readonly windows = new WeakMap<WebSocket, Window>();

  constructor(
    private readonly now: () => number,
    private readonly bytesPerMinute = REPLAY_BYTES_PER_MINUTE,
  ) {}

  /** Whether `ws` may be sent another replay now. */
  allows(ws: WebSocket): boolean {
    return this.current(ws).bytes < this.bytesPerMinute;
  }

  /** Sends replayed `frames` to `ws`, counting each against its allowance. */
  send(ws: WebSocket, frames: Iterable<string>): void {
    for (const frame of frames) {
      ws.send(frame);
      this.charge(ws, frame.length);
    }
  }

  /** Counts `bytes` just replayed to `ws`. */
  charge(ws: WebSocket, bytes: number): void {
    this.current(ws).bytes += bytes;
  }

  private current(ws: WebSocket): Window {
    const now = this.now();
    let window = this.windows.get(ws);
    if (!window || now - window.start >= WINDOW_MS) {
      window = { start: now, bytes: 0 };
      this.windows.set(ws, window);
    }
    return window;
  }
}
