// The session's deadline sources, in the order the alarm drains them. The order is the guarantee:
// retention first (an erased session runs nothing else), then what only touches this object's own
// rows (links, cards, the watchdog, reminders, escalations), and last what waits on other services (deliveries,
// the inbox), so a slow push service never holds up a timeout.
import type { Notifier } from "../../notify/notifier";
import type { DeadlineSource } from "../../objects/deadline-source";
import type { InboxReport } from "../inbox-report/inbox-report";
import type { LinkAdminHost } from "../link-admin";
import type { SessionRuntime } from "../session-runtime";
import type { SessionState } from "../session-state";
import { deliverySource } from "./delivery-source";
import { escalationSource } from "./escalation-source";
import { interactionTimeoutSource } from "./interaction-timeout-source";
import { linkExpirySource } from "./link-expiry-source";
import { reminderSource } from "./reminder-source";
import { retentionSource } from "./retention-source";
import { watchdogSource } from "./watchdog-source";

/** What the session object lends its deadline sources; each part is built only when a source needs it. */
export interface DeadlineHost {
  agent(): SessionRuntime;
  erase(reason: string): void;
  linkAdmin(): LinkAdminHost;
  notifier(): Notifier;
}

export function sessionDeadlineSources(
  state: SessionState,
  host: DeadlineHost,
  inboxReport: InboxReport,
): DeadlineSource[] {
  return [
    retentionSource(state.retention, () => state.exists(), host.erase),
    linkExpirySource(state.links, host.linkAdmin),
    interactionTimeoutSource(state.interactions, host.agent),
    watchdogSource(state.deadlines, host.agent),
    reminderSource(state, host.notifier),
    escalationSource(state, host.notifier),
    deliverySource(state.deliveries, host.notifier),
    inboxReport,
  ];
}
