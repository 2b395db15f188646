import { describe, expect, it } from "vitest";
import { InteractionWaiters, type SetTimer } from "../../../src/session/interaction-waiters";

/** Timers that fire only when the test says so. */
function manualTimers() {
  const pending = new Map<number, () => void>();
  let next = 0;
  const setTimer: SetTimer = (callback) => {
    const id = next++;
    pending.set(id, callback);
    return () => pending.delete(id);
  };
  const fireAll = () => {
    for (const [id, callback] of [...pending]) {
      pending.delete(id);
      callback();
    }
  };
  return {
    setTimer,
    fireAll,
    get armed() {
      return pending.size;
    },
  };
}

describe("interaction waiters", () => {
  it("wake every read of a card when it resolves, and cancel their timers", async () => {
    const timers = manualTimers();
    const waiters = new InteractionWaiters(timers.setTimer);
    const woken: string[] = [];
    const first = waiters.wait("ext_a", 30_000).then(() => woken.push("first"));
    const second = waiters.wait("ext_a", 30_000).then(() => woken.push("second"));
    const other = waiters.wait("ext_b", 30_000).then(() => woken.push("other"));
    expect(waiters.size).toBe(3);
    waiters.settle("ext_a");
    await Promise.all([first, second]);
    expect(woken.sort()).toEqual(["first", "second"]);
    expect(waiters.size).toBe(1);
    expect(timers.armed).toBe(1);
    timers.fireAll();
    await other;
    expect(waiters.size).toBe(0);
  });

  it("end a read when its time is up, leaving nothing behind", async () => {
    const timers = manualTimers();
    const waiters = new InteractionWaiters(timers.setTimer);
    const read = waiters.wait("ext_a", 1_000);
    timers.fireAll();
    await read;
    expect(waiters.size).toBe(0);
    waiters.settle("ext_a"); // a late resolution finds nobody and does nothing
    expect(waiters.size).toBe(0);
  });
});
