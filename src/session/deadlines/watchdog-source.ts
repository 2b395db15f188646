// The running turn's watchdog, which also carries a model retry's time (model-retry.ts sets the
// watchdog to it): a turn nobody drives is resumed, a stalled stream is aborted and re-issued.
import type { DeadlineScheduler } from "../../agent/ports";
import type { DeadlineSource } from "../../objects/deadline-source";
import type { SessionRuntime } from "../session-runtime";

export function watchdogSource(deadlines: DeadlineScheduler, agent: () => SessionRuntime): DeadlineSource {
  return {
    name: "watchdog",
    next: () => deadlines.watchdog(),
    // Checked on every alarm, due or not: any wake is a chance to resume a turn whose runner is gone.
    fire(now, run) {
      if (agent().loop.checkWatchdog(now)) run.wake();
      return undefined;
    },
  };
}
