// Commands per socket per second: a token bucket per live socket. A refused frame gets a
// `rate_limited` ack and the socket stays open.
interface Bucket {
  tokens: number;
  at: number;
}

export class SocketBudget {
  // INVARIANT: allowances of sockets this instance has seen; after hibernation every socket
  // starts with a full burst again, which only ever lets an honest client through sooner.
  private readonly buckets = new WeakMap<WebSocket, Bucket>();

  constructor(
    private readonly now: () => number,
    private readonly burst: number,
    private readonly perSecond: number,
  ) {}

  /** Takes one command from the socket's allowance; false when it is spent. */
  take(ws: WebSocket): boolean {
    const now = this.now();
    const bucket = this.buckets.get(ws) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(ws, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
