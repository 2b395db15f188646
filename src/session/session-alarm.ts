// The one alarm, drained in order: retention first (an expired session is erased and nothing else
// runs), then share-link expiry, card deadlines and the watchdog, and last the notifications and
// the inbox report, so a slow push service or inbox never holds up a timeout.
import { timeOutDue } from "../agent/resolve-interaction";
import type { Notifier } from "../notify/notifier";
import type { InboxReport } from "./inbox-report";
import { expireLinks, type LinkAdminHost } from "./link-admin";
import type { SessionRuntime } from "./session-runtime";
import type { SessionState } from "./session-state";

/** What the session object lends its alarm; each part is built only when the alarm reaches it. */
export interface AlarmHost {
  readonly state: SessionState;
  agent(): SessionRuntime;
  erase(reason: string): void;
  linkAdmin(): LinkAdminHost;
  notifier(): Notifier;
  inboxReport(): InboxReport;
}

export async function runAlarm(host: AlarmHost): Promise<void> {
  const { state } = host;
  const { deps, loop } = host.agent();
  state.deadlines.fired();
  const now = deps.clock.now();
  const retention = state.retention.due(now);
  if (retention?.type === "expire") {
    host.erase("The session expired after its retention period without activity");
    return;
  }
  if (retention?.type === "warn") state.retention.warn(retention.expiresAt);
  expireLinks(host.linkAdmin(), now);
  // Deadlines are drained here and may throw, so the platform retries the alarm; the turn itself
  // runs on, like after any command, and reports its own failures as events.
  const timedOut = timeOutDue(deps, now) > 0;
  const resume = loop.checkWatchdog(now) || timedOut;
  state.deadlines.rearm();
  if (resume)
    loop.advance().catch((error: unknown) => console.error("SessionObject.alarm advance failed", error));
  // Notifications go out last: a slow push service or webhook must not hold up a timeout.
  if ((await host.notifier().deliverDue(now)) > 0) state.deadlines.rearm();
  await host.inboxReport().fire(now);
}
