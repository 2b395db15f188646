// The one alarm is re-armed once per task: however many times a step asks (an answer resolving its
// card, the loop moving its watchdog, a tool's result), every deadline source is read and the alarm
// written once, after the step's synchronous work, at the earliest deadline that work left.
import { describe, expect, it } from "vitest";
import type { SessionObject } from "../../../src/session/session-object";
import type { SessionState } from "../../../src/session/session-state";
import { inside, runInDurableObject } from "../../helpers/run-in-object";
import { createSession } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";

function stateOf(instance: SessionObject): SessionState {
  return inside(instance).state;
}

describe("re-arming the alarm", () => {
  it("reads the deadline sources once for many requests in one task and sets the alarm to the last word", async () => {
    const session = await createSession();
    const result = await runInDurableObject(stubOf(session), async (instance: SessionObject, ctx) => {
      const { deadlines } = stateOf(instance);
      let reads = 0;
      deadlines.add({
        name: "counting",
        next: () => {
          reads += 1;
          return null;
        },
        fire: () => undefined,
      });
      const now = Date.now();
      deadlines.setWatchdog(now + 60_000);
      deadlines.setWatchdog(now + 90_000);
      deadlines.rearm();
      const readsInTask = reads;
      await Promise.resolve();
      return { readsInTask, readsAfter: reads, alarm: await ctx.storage.getAlarm(), now };
    });
    expect(result.readsInTask).toBe(0);
    expect(result.readsAfter).toBe(1);
    expect(result.alarm).toBe(result.now + 90_000);
  });
});
