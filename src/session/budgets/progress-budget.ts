// Progress events per credential: one bucket for the owner's token and one per link, counted in
// events (a post carries up to 50) and shared by the socket and HTTP, so neither is a way around it.
import { logSecurityEvent } from "../../log/security-log";
import { Refusal } from "../../objects/refusal";
import { socketTag } from "../../objects/socket-access";
import type { Access } from "../../protocol/access/access";
import { PROGRESS_EVENT_BURST, PROGRESS_EVENTS_PER_SECOND } from "../../protocol/limits";
import { CommandBuckets } from "./socket-budget";

export class ProgressBudget {
  private readonly buckets: CommandBuckets<string>;

  constructor(
    now: () => number,
    limits = { burst: PROGRESS_EVENT_BURST, perSecond: PROGRESS_EVENTS_PER_SECOND },
  ) {
    this.buckets = new CommandBuckets(
      now,
      { socketCommandBurst: limits.burst, socketCommandsPerSecond: limits.perSecond },
      new Map(),
    );
  }

  /** Takes `events` from `access`'s allowance, or refuses the whole post with `rate_limited`. */
  take(access: Access, events: number, logIds: { sessionId: string; linkId: string | null }): void {
    const retryAfterSeconds = this.buckets.take(socketTag(access), events);
    if (retryAfterSeconds === 0) return;
    logSecurityEvent("rate_limited", { ...logIds, reason: "progress_events", status: 429 });
    throw Refusal.from({
      code: "rate_limited",
      message: `Too much progress posted with this token; retry in ${retryAfterSeconds} s`,
      retryAfterSeconds,
    });
  }
}
