// One alarm, many deadlines, for any Durable Object: the alarm is always the earliest `next()` of
// the object's deadline sources (src/objects/deadline-source.ts), is deleted when there is none, and
// when it fires, `runAlarm` drains the sources in their order. The session and the inbox both run on it.

import type { KeptCopy } from "../storage/sql-counter";
import { type DeadlineSource, STOP } from "./deadline-source";

export class DeadlineLoop {
  // INVARIANT: mirrors the alarm this instance last set, to skip redundant setAlarm calls;
  // undefined (unknown) in a new instance, so the first rearm always writes. Registered with the
  // SqlCounter as `copy`: a rollback may undo an alarm change, and drops it with the others.
  private armed: number | null | undefined;
  // INVARIANT: the sources the object registers when it builds its stores, in the order the alarm
  // drains them; a new instance registers the same ones.
  private readonly list: DeadlineSource[] = [];
  // INVARIANT: true while a rearm is queued for the end of the current task.
  private rearming = false;
  private discarded = false;

  constructor(private readonly storage: Pick<DurableObjectStorage, "setAlarm" | "deleteAlarm">) {}

  /** Adds deadline sources, drained by the alarm after those added before them. */
  add(...sources: DeadlineSource[]): void {
    this.list.push(...sources);
  }

  /** The sources in the order the alarm drains them. */
  sources(): readonly DeadlineSource[] {
    return this.list;
  }

  earliest(): number | null {
    let earliest: number | null = null;
    for (const source of this.list) {
      const next = source.next();
      if (next !== null && (earliest === null || next < earliest)) earliest = next;
    }
    return earliest;
  }

  /**
   * Moves the alarm to the earliest deadline once the current task's synchronous work is done.
   * One step (an answer resolving its card, the loop moving its watchdog, a tool's result) may
   * ask many times; reading every deadline source and writing the alarm once, not each time,
   * keeps that work and those writes off what the step's sends wait for (the output gate).
   */
  rearm(): void {
    if (this.rearming) return;
    this.rearming = true;
    queueMicrotask(() => {
      this.rearming = false;
      if (!this.discarded) this.apply();
    });
  }

  /**
   * The kept alarm as one of the object's kept copies (see SqlCounter.keep), so a rollback drops
   * it. Shadow reads leave it out: the platform moves the alarm itself (it clears it as it fires
   * it), so this copy and storage may differ between inputs by design, and the next re-arm writes.
   */
  readonly copy: KeptCopy = { forget: () => this.fired(), differences: () => [] };

  /** Forget the cached alarm (the platform clears it when it fires). */
  fired(): void {
    this.armed = undefined;
  }

  /** The object is being erased: a re-arm already queued must not read its dropped tables. */
  discard(): void {
    this.discarded = true;
  }

  private apply(): void {
    const next = this.earliest();
    if (next === this.armed) return;
    this.armed = next;
    // Storage operations are ordered and covered by the output gate; no need to await here.
    if (next === null) void this.storage.deleteAlarm();
    else void this.storage.setAlarm(next);
  }
}

/**
 * Drains every source at `now`. A source that throws does not stop the others (a broken reminder
 * must not keep a card from timing out); once all ran and the alarm is re-armed, the first failure
 * is rethrown so the platform retries the alarm, and the sources, being idempotent, redo only what
 * is still due. `wakeLoop` runs once, before the alarm first waits on another service, if a source
 * asked for it, so the turn never waits on a push service either. `owner` names the object in logs.
 */
export async function runAlarm(
  loop: DeadlineLoop,
  now: number,
  wakeLoop: () => void = () => {},
  owner = "SessionObject",
): Promise<void> {
  loop.fired();
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
  for (const source of loop.sources()) {
    try {
      let fired = source.fire(now, run);
      if (fired instanceof Promise) {
        wake();
        fired = await fired;
      }
      if (fired === STOP) return;
    } catch (error) {
      console.error(`${owner}.alarm: ${source.name} failed`, error);
      failures.push(error);
    }
    loop.rearm();
  }
  wake();
  loop.rearm();
  if (failures.length > 0) throw failures[0];
}
