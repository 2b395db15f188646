// Idle sessions expire (docs/architecture.md#long-sessions, `SESSION_RETENTION_DAYS`): a deadline on the one alarm,
// computed from the last event, with a warning event a day before. The warning itself is not
// activity, or it would keep every session alive.

import type { MetaStore } from "../../objects/meta-store";
import type { EventLog } from "./event-log";

const DAY_MS = 24 * 60 * 60 * 1000;
/** `SESSION_RETENTION_DAYS` when unset: 30 days. */
export const DEFAULT_RETENTION_MS = 30 * DAY_MS;

export type RetentionStep = { type: "expire" } | { type: "warn"; expiresAt: number } | null;

export class Retention {
  constructor(
    private readonly meta: MetaStore,
    private readonly events: EventLog,
    private readonly retentionMs: number,
  ) {}

  /** When the session was last used: its last event (the expiry warning aside), else its creation. */
  lastActivity(): number {
    return this.events.lastActivityAt() ?? this.meta.number("created_at") ?? 0;
  }

  expiresAt(): number {
    return this.lastActivity() + this.retentionMs;
  }

  /** The next retention deadline: the warning, or once warned for this idle spell, the expiry. */
  nextDeadline(): number {
    const activity = this.lastActivity();
    const expiresAt = activity + this.retentionMs;
    return this.warnedFor() === activity ? expiresAt : expiresAt - this.warningAheadMs();
  }

  /** What is due at `now`: erase the session, warn its devices, or nothing. */
  due(now: number): RetentionStep {
    const activity = this.lastActivity();
    const expiresAt = activity + this.retentionMs;
    if (now >= expiresAt) return { type: "expire" };
    if (now >= expiresAt - this.warningAheadMs() && this.warnedFor() !== activity) {
      return { type: "warn", expiresAt };
    }
    return null;
  }

  /** Announces the coming expiry once per idle spell. */
  warn(expiresAt: number): void {
    this.meta.set("retention_warned_for", this.lastActivity());
    this.events.append("session_expiring", { expiresAt });
  }

  // A day ahead, or half the retention when that is shorter (tests and short-lived deployments).
  private warningAheadMs(): number {
    return Math.min(DAY_MS, this.retentionMs / 2);
  }

  private warnedFor(): number | null {
    return this.meta.number("retention_warned_for") ?? null;
  }
}
