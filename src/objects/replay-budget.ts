// Replayed history per credential: the owner's token and each link may be sent at most
// REPLAY_BYTES_PER_MINUTE of stored events a minute, on connect and on `resume` together, across
// all of its connections, so neither a flood of `resume` (each up to 4 MiB) nor reconnecting over
// and over (each connection replaying from 0) keeps the object busy serializing its log for one client.
import { REPLAY_BYTES_PER_MINUTE } from "../protocol/limits";

const WINDOW_MS = 60_000;

interface Window {
  start: number;
  bytes: number;
}

export class ReplayBudget {
  // INVARIANT: per credential tag (socketTag), for this instance; after hibernation a credential
  // starts a fresh window, which only ever lets an honest client through sooner. At most one entry
  // per credential the object admits (the owner and its links).
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly now: () => number,
    private readonly bytesPerMinute = REPLAY_BYTES_PER_MINUTE,
  ) {}

  /** Whether credential `tag` may be sent another replay now. */
  allows(tag: string): boolean {
    return this.current(tag).bytes < this.bytesPerMinute;
  }

  /** Sends replayed `frames` to `ws`, counting each against credential `tag`'s allowance. */
  send(ws: WebSocket, tag: string, frames: Iterable<string>): void {
    for (const frame of frames) {
      ws.send(frame);
      this.charge(tag, frame.length);
    }
  }

  /** Counts `bytes` just replayed to a connection of credential `tag`. */
  charge(tag: string, bytes: number): void {
    this.current(tag).bytes += bytes;
  }

  private current(tag: string): Window {
    const now = this.now();
    let window = this.windows.get(tag);
    if (!window || now - window.start >= WINDOW_MS) {
      window = { start: now, bytes: 0 };
      this.windows.set(tag, window);
    }
    return window;
  }
}
