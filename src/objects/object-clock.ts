// A Durable Object's one clock (a session's or an inbox's): stored times, deadlines, the alarm, the
// budgets and notification retries all read it, so a test moves time forward instead of waiting for it.
import type { Clock } from "../agent/ports";

export class ObjectClock implements Clock {
  // INVARIANT: zero in production; only tests move it (through the instance). A new instance
  // starts at the wall clock again, which can only make a deadline look later, never skip one.
  private offset = 0;

  // A bound function, not a method: it is handed on alone (`new StreamAssembler(emit, clock.now)`),
  // and a method read off its instance that way would see another `this` and return NaN.
  readonly now = (): number => Date.now() + this.offset;

  /** Moves this instance's time forward by `ms` (never back: stored times must not go backwards). */
  advance(ms: number): void {
    if (ms < 0) throw new RangeError(`The clock only moves forward, not by ${ms} ms`);
    this.offset += ms;
  }

  /** Moves this instance's time forward to `at`, if it is not there yet. */
  advanceTo(at: number): void {
    this.advance(Math.max(0, at - this.now()));
  }
}
