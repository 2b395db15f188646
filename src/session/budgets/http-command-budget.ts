// Commands per credential over HTTP: one token bucket for the owner's token, one per share link,
// and the inbox's own (the person's, one per inbox link), with the socket's burst and rate, so the
// HTTP routes are no way around the socket limit and the inbox never spends the owner's allowance.
import type { Config } from "../../config";
import { logSecurityEvent } from "../../log/security-log";
import { Refusal } from "../../objects/refusal";
import { socketTag } from "../../objects/socket-access";
import type { Access } from "../../protocol/access/access";
import { CommandBuckets } from "./socket-budget";

export class HttpCommandBudget {
  // One bucket per credential: the owner, at most MAX_SHARE_LINKS links, the person's inbox and
  // the inbox links that reach this session (a person holds a bounded number of them).
  private readonly buckets: CommandBuckets<string>;

  constructor(now: () => number, limits: Pick<Config, "socketCommandBurst" | "socketCommandsPerSecond">) {
    this.buckets = new CommandBuckets(now, limits, new Map());
  }

  /**
   * Takes one command from `access`'s allowance (or from `bucket`'s, for traffic that has its own,
   * such as the inbox's), or refuses with `rate_limited` and when to retry.
   */
  take(
    access: Access,
    logIds: { sessionId: string; linkId: string | null },
    bucket = socketTag(access),
  ): void {
    const retryAfterSeconds = this.buckets.take(bucket);
    if (retryAfterSeconds === 0) return;
    logSecurityEvent("rate_limited", { ...logIds, reason: "http_commands", status: 429 });
    throw Refusal.from({
      code: "rate_limited",
      message: `Too many commands with this token; retry in ${retryAfterSeconds} s`,
      retryAfterSeconds,
    });
  }
}
