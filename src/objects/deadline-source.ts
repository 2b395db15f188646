// What the one alarm multiplexes (docs/style.md, rule 8): each kind of deadline is a source that says when it
// is next due and does its work when the alarm fires. The alarm is a loop over an ordered list.

/** Returned by a source whose work ended the session: the sources after it must not run. */
export const STOP = "stop";

/** What a source's work returns: STOP, or nothing. */
export type Fired = typeof STOP | undefined;

/** What one firing of the alarm lends each source. */
export interface AlarmRun {
  /** Asks for the agent loop to run once the alarm's deadlines are drained (asked many times, it runs once). */
  wake(): void;
}

export interface DeadlineSource {
  /** Names the source in logs when its work fails. */
  readonly name: string;
  /** When the alarm must next wake for this source, or null when nothing waits. Never writes. */
  next(): number | null;
  /**
   * Does what is due at `now`. Called on every alarm whatever `next()` says, and idempotent (alarms
   * are at-least-once): a source whose kept `next()` says nothing is due returns at once (`isDue`),
   * since most alarms wake for one source. A source that awaits (a network send) is run after the
   * loop was woken.
   */
  fire(now: number, run: AlarmRun): Fired | Promise<Fired>;
}

/** Whether a source's `next()` has come: its `fire` has work at `now`. */
export function isDue(next: number | null, now: number): boolean {
  return next !== null && next <= now;
}
