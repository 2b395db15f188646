// The alarm is a loop over deadline sources in their order: a source that ends the session stops
// the rest, a source that throws does not keep the others from running (the alarm then rethrows so
// the platform retries), and the agent loop is woken once, before the alarm first waits on a send.
import { describe, expect, it } from "vitest";
import type { SqlDeliveryStore } from "../../../src/notify/delivery-store";
import type { Notifier } from "../../../src/notify/notifier";
import { runAlarm } from "../../../src/objects/deadline-loop";
import { type DeadlineSource, STOP } from "../../../src/objects/deadline-source";
import { MetaStore } from "../../../src/objects/meta-store";
import { deliverySource } from "../../../src/session/deadlines/delivery-source";
import type { SessionObject } from "../../../src/session/session-object";
import { AlarmDeadlines } from "../../../src/session/stores/deadlines";
import { SqlCounter } from "../../../src/storage/sql-counter";
import { runInDurableObject } from "../../helpers/run-in-object";
import { createSession } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";

/** A source that records when it fires, due at `next`, doing `work` when fired. */
function source(
  log: string[],
  name: string,
  next: number | null,
  work: DeadlineSource["fire"] = () => undefined,
): DeadlineSource {
  return {
    name,
    next: () => next,
    fire: (now, run) => {
      log.push(name);
      return work(now, run);
    },
  };
}

async function inObject<T>(test: (deadlines: AlarmDeadlines, storage: DurableObjectStorage) => Promise<T>) {
  const session = await createSession();
  return runInDurableObject<SessionObject, T>(stubOf(session), async (_instance, state) => {
    const deadlines = new AlarmDeadlines(state.storage, new MetaStore(new SqlCounter(state.storage.sql)));
    return test(deadlines, state.storage);
  });
}

describe("the alarm's loop over deadline sources", () => {
  it("runs every source in order, rethrows the first failure after the rest ran, and re-arms to the earliest", async () => {
    const result = await inObject(async (deadlines, storage) => {
      const log: string[] = [];
      const now = Date.now();
      deadlines.add(
        source(log, "first", now + 90_000),
        source(log, "broken", null, () => {
          throw new Error("a broken source");
        }),
        source(log, "last", now + 30_000),
      );
      const failure = await runAlarm(deadlines, now, () => log.push("wake")).catch(
        (error: Error) => error.message,
      );
      await Promise.resolve();
      return { log, failure, alarm: await storage.getAlarm(), now };
    });
    expect(result.log).toEqual(["first", "broken", "last"]);
    expect(result.failure).toBe("a broken source");
    expect(result.alarm).toBe(result.now + 30_000);
  });

  it("stops at a source that ended the session: none after it runs", async () => {
    const log = await inObject(async (deadlines) => {
      const log: string[] = [];
      deadlines.add(
        source(log, "retention", null, () => STOP),
        source(log, "cards", null),
      );
      await runAlarm(deadlines, Date.now(), () => log.push("wake"));
      return log;
    });
    expect(log).toEqual(["retention"]);
  });

  it("wakes the loop once however many sources ask, before the alarm first waits on a send", async () => {
    const log = await inObject(async (deadlines) => {
      const log: string[] = [];
      deadlines.add(
        source(log, "cards", null, (_now, run) => {
          run.wake();
          return undefined;
        }),
        source(log, "watchdog", null, (_now, run) => {
          run.wake();
          return undefined;
        }),
        source(log, "deliveries", null, async () => {
          await Promise.resolve();
          log.push("sent");
          return undefined;
        }),
      );
      await runAlarm(deadlines, Date.now(), () => log.push("wake"));
      return log;
    });
    expect(log).toEqual(["cards", "watchdog", "deliveries", "wake", "sent"]);
  });
});

describe("a source with nothing due", () => {
  it("returns at once, so an alarm woken for another source neither reads its rows nor waits on a send", async () => {
    const now = 1_000_000;
    const sends: number[] = [];
    const notifier = { deliverDue: async (at: number) => sends.push(at) } as unknown as Notifier;
    let due: number | null = now + 60_000;
    const deliveries = { earliestDue: () => due } as unknown as SqlDeliveryStore;
    const deliveriesSource = deliverySource(deliveries, () => notifier);
    const run = { wake: () => {} };

    expect(deliveriesSource.fire(now, run)).toBeUndefined();
    due = null;
    expect(deliveriesSource.fire(now, run)).toBeUndefined();
    expect(sends).toEqual([]);

    due = now;
    const fired = deliveriesSource.fire(now, run);
    expect(fired).toBeInstanceOf(Promise);
    await fired;
    expect(sends).toEqual([now]);
  });
});
