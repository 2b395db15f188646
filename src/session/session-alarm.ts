// The one alarm: a loop over the session's deadline sources, in their order (see
// deadline-sources/session-deadline-sources.ts). Adding a deadline is adding a source, not an edit here.

import { STOP } from "./deadline-sources/deadline-source";
import type { AlarmDeadlines } from "./deadlines";

/**
 * Drains every source at `now`. A source that throws does not stop the others (a broken reminder
 * must not keep a card from timing out); once all ran and the alarm is re-armed, the first failure
 * is rethrown so the platform retries the alarm, and the sources, being idempotent, redo only what
 * is still due. `wakeLoop` runs once, before the alarm first waits on another service, if a source
 * asked for it, so the turn never waits on a push service either.
 */
export async function runAlarm(deadlines: AlarmDeadlines, now: number, wakeLoop: () => void): Promise<void> {
  deadlines.fired();
  let wanted = false;
  let woken = false;
  const wake = () => {
    if (wanted && !woken) {
      woken = true;
      wakeLoop();
    }
  };
  const run = {
    wake: () => {
      wanted = true;
    },
  };
  const failures: unknown[] = [];
  for (const source of deadlines.sources()) {
    try {
      let fired = source.fire(now, run);
      if (fired instanceof Promise) {
        wake();
        fired = await fired;
      }
      if (fired === STOP) return;
    } catch (error) {
      console.error(`SessionObject.alarm: ${source.name} failed`, error);
      failures.push(error);
    }
    deadlines.rearm();
  }
  wake();
  deadlines.rearm();
  if (failures.length > 0) throw failures[0];
}
