// Commands per socket per second: a token bucket per live socket. A refused frame gets a
// `rate_limited` ack and the socket stays open. The bucket itself is shared with HTTP commands.
import type { Config } from "../config";

export interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Refills `bucket` for the time since it was last used, then takes one command from it. Returns 0
 * when taken, else the whole seconds until one command is allowed again.
 */
export function takeCommand(bucket: Bucket, now: number, burst: number, perSecond: number): number {
  bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
  bucket.at = now;
  if (bucket.tokens < 1) return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
  bucket.tokens -= 1;
  return 0;
}

export class SocketBudget {
  // INVARIANT: allowances of sockets this instance has seen; after hibernation every socket
  // starts with a full burst again, which only ever lets an honest client through sooner.
  private readonly buckets = new WeakMap<WebSocket, Bucket>();

  private readonly burst: number;
  private readonly perSecond: number;

  constructor(
    private readonly now: () => number,
    limits: Pick<Config, "socketCommandBurst" | "socketCommandsPerSecond">,
  ) {
    this.burst = limits.socketCommandBurst;
    this.perSecond = limits.socketCommandsPerSecond;
  }

  /** Takes one command from the socket's allowance; false when it is spent. */
  take(ws: WebSocket): boolean {
    const now = this.now();
    const bucket = this.buckets.get(ws) ?? { tokens: this.burst, at: now };
    this.buckets.set(ws, bucket);
    return takeCommand(bucket, now, this.burst, this.perSecond) === 0;
  }
}
