// The stores of one session object and what hangs off them: every stored event goes on to the
// notifier, the inbox report and the long-poll waiters (of cards and of messages), and the deadline sources are registered
// before the alarm is first re-armed.
import type { Config } from "../config";
import type { Notifier } from "../notify/notifier";
import type { ObjectClock } from "../objects/object-clock";
import { approvalsUnreachable } from "./card-approvals";
import { sessionDeadlineSources } from "./deadlines/session-deadline-sources";
import { MESSAGE_WAIT } from "./external-messages";
import type { InboxReport } from "./inbox-report/inbox-report";
import { sessionInboxReport } from "./inbox-report/session-inbox-report";
import type { InteractionWaiters } from "./interaction-waiters";
import type { LinkAdminHost } from "./link-admin";
import type { SessionRuntime } from "./session-runtime";
import { SessionState } from "./session-state";

/** What the object lends its stores; each part is asked for only when an event or the alarm needs it. */
export interface SessionWiring {
  storage: DurableObjectStorage;
  config: Config;
  env: Env;
  clock: ObjectClock;
  waiters: InteractionWaiters;
  /** Sends a frame to every device; says how many sockets took it. */
  broadcast(frame: string): number;
  notifier(): Notifier;
  agent(): SessionRuntime;
  erase(reason: string): void;
  linkAdmin(): LinkAdminHost;
}

export function wireSessionState(wiring: SessionWiring): { state: SessionState; inboxReport: InboxReport } {
  let inboxReport: InboxReport | null = null;
  const state = new SessionState(
    wiring.storage,
    (frame) => wiring.broadcast(frame),
    (event) => {
      wiring.notifier().onEvent(event);
      inboxReport?.onEvent(event);
      if (event.type === "interaction_resolved") wiring.waiters.settle(event.data.interactionId ?? "");
      if ((event.type === "user_message" && event.data.awaitsAgent) || event.type === "session_stopped")
        wiring.waiters.settle(MESSAGE_WAIT);
    },
    wiring.config.retentionMs,
    wiring.clock,
  );
  // A deferred write storage refused stops the turn with an error every device sees; if even
  // that cannot be stored, it is logged and nothing more is tried.
  state.sql.onDeferredWriteFailure = (error) => {
    console.error("SessionObject: storage refused a deferred write", error);
    try {
      wiring.agent().loop.failOnStorage(error);
      state.events.flush();
    } catch (again) {
      console.error("SessionObject could not record the refused write", again);
    }
  };
  state.cardApprovals.deploymentReach = approvalsUnreachable(wiring.config);
  inboxReport = sessionInboxReport(state, wiring.config, wiring.env);
  state.deadlines.add(
    ...sessionDeadlineSources(
      state,
      {
        agent: wiring.agent,
        erase: wiring.erase,
        linkAdmin: wiring.linkAdmin,
        notifier: wiring.notifier,
      },
      inboxReport,
    ),
  );
  return { state, inboxReport };
}
