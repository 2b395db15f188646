// A clock and a timer driven by hand, for the stream assembler and its parts: time moves only when
// a test says so, and the timers that fall due fire in order.
import type { Schedule } from "../../../src/agent/schedule";

export function handClock() {
  const clock = { now: 0 };
  let timers: Array<{ at: number; fire: () => void }> = [];
  const schedule: Schedule = (fire, ms) => {
    const timer = { at: clock.now + ms, fire };
    timers.push(timer);
    return () => {
      timers = timers.filter((other) => other !== timer);
    };
  };
  /** Moves the clock on by `ms`, firing the timers that fall due, in order. */
  const advance = (ms: number) => {
    const end = clock.now + ms;
    for (;;) {
      const next = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      timers = timers.filter((t) => t !== next);
      clock.now = next.at;
      next.fire();
    }
    clock.now = end;
  };
  return { clock, now: () => clock.now, schedule, advance, pendingTimers: () => timers.length };
}
