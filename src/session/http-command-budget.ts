// Commands per credential over HTTP: one token bucket for the owner's token and one per share
// link, with the socket's burst and rate, so the HTTP routes are no way around the socket limit.
import type { Config } from "../config";
import { logSecurityEvent } from "../log/security-log";
import type { Access } from "../protocol/access";
import { SessionRefusal } from "./session-refusal";
import { socketTag } from "./socket-access";
import { CommandBuckets } from "./socket-budget";

export class HttpCommandBudget {
  // One bucket per credential: the owner and at most MAX_SHARE_LINKS links.
  private readonly buckets: CommandBuckets<string>;

  constructor(now: () => number, limits: Pick<Config, "socketCommandBurst" | "socketCommandsPerSecond">) {
    this.buckets = new CommandBuckets(now, limits, new Map());
  }

  /** Takes one command from `access`'s allowance, or refuses with `rate_limited` and when to retry. */
  take(access: Access, logIds: { sessionId: string; linkId: string | null }): void {
    const retryAfterSeconds = this.buckets.take(socketTag(access));
    if (retryAfterSeconds === 0) return;
    logSecurityEvent("rate_limited", { ...logIds, reason: "http_commands", status: 429 });
    throw new SessionRefusal({
      code: "rate_limited",
      message: `Too many commands with this token; retry in ${retryAfterSeconds} s`,
      retryAfterSeconds,
    });
  }
}
