// Commands per credential over HTTP: one token bucket for the owner's token and one per share
// link, with the socket's burst and rate, so the HTTP routes are no way around the socket limit.
import type { Config } from "../config";
import { logSecurityEvent } from "../log/security-log";
import type { Access } from "../protocol/access";
import { SessionRefusal } from "./session-refusal";
import { socketTag } from "./socket-access";
import { type Bucket, takeCommand } from "./socket-budget";

export class HttpCommandBudget {
  // INVARIANT: allowances this instance has counted, one per credential (the owner and at most
  // MAX_SHARE_LINKS links); a new instance starts each with a full burst, which only ever lets an
  // honest client through sooner.
  private readonly buckets = new Map<string, Bucket>();

  private readonly burst: number;
  private readonly perSecond: number;

  constructor(
    private readonly now: () => number,
    limits: Pick<Config, "socketCommandBurst" | "socketCommandsPerSecond">,
  ) {
    this.burst = limits.socketCommandBurst;
    this.perSecond = limits.socketCommandsPerSecond;
  }

  /** Takes one command from `access`'s allowance, or refuses with `rate_limited` and when to retry. */
  take(access: Access, logIds: { sessionId: string; linkId: string | null }): void {
    const now = this.now();
    const tag = socketTag(access);
    const bucket = this.buckets.get(tag) ?? { tokens: this.burst, at: now };
    this.buckets.set(tag, bucket);
    const retryAfterSeconds = takeCommand(bucket, now, this.burst, this.perSecond);
    if (retryAfterSeconds === 0) return;
    logSecurityEvent("rate_limited", { ...logIds, reason: "http_commands", status: 429 });
    throw new SessionRefusal({
      code: "rate_limited",
      message: `Too many commands with this token; retry in ${retryAfterSeconds} s`,
      retryAfterSeconds,
    });
  }
}
