// Commands per socket per second: a token bucket per live socket. A refused frame gets a
// `rate_limited` ack and the socket stays open. The buckets themselves are shared with HTTP commands.
import type { Config } from "../../config";

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets by key (a socket, a credential), each holding up to the burst and refilled at the
 * configured rate. Shared by the socket's and the HTTP routes' command budgets.
 */
export class CommandBuckets<K> {
  private readonly burst: number;
  private readonly perSecond: number;

  constructor(
    private readonly now: () => number,
    limits: Pick<Config, "socketCommandBurst" | "socketCommandsPerSecond">,
    // INVARIANT: allowances this instance has counted; a new instance (after hibernation) starts
    // each key with a full burst again, which only ever lets an honest client through sooner.
    private readonly buckets: { get(key: K): Bucket | undefined; set(key: K, bucket: Bucket): unknown },
  ) {
    this.burst = limits.socketCommandBurst;
    this.perSecond = limits.socketCommandsPerSecond;
  }

  /**
   * Refills `key`'s bucket for the time since it was last used, then takes `cost` (one command, by
   * default) from it. Returns 0 when taken, else the whole seconds until `cost` is allowed again.
   */
  take(key: K, cost = 1): number {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    this.buckets.set(key, bucket);
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    if (bucket.tokens < cost) return Math.max(1, Math.ceil((cost - bucket.tokens) / this.perSecond));
    bucket.tokens -= cost;
    return 0;
  }
}

export class SocketBudget {
  private readonly buckets: CommandBuckets<WebSocket>;

  constructor(now: () => number, limits: Pick<Config, "socketCommandBurst" | "socketCommandsPerSecond">) {
    this.buckets = new CommandBuckets(now, limits, new WeakMap<WebSocket, Bucket>());
  }

  /** Takes one command from the socket's allowance; false when it is spent. */
  take(ws: WebSocket): boolean {
    return this.buckets.take(ws) === 0;
  }
}
