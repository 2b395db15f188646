// One alarm, many deadlines: the alarm is always the earliest `next()` of the deadline sources
// (deadline-sources/), and is deleted when there is none. The watchdog's time is kept here, since
// the agent loop moves it.
import type { DeadlineScheduler } from "../agent/ports";
import type { KeptCopy } from "../storage/sql-counter";
import type { DeadlineSource } from "./deadline-sources/deadline-source";
import type { MetaStore } from "./meta-store";

export class AlarmDeadlines implements DeadlineScheduler {
  // INVARIANT: mirrors the alarm this instance last set, to skip redundant setAlarm calls;
  // undefined (unknown) in a new instance, so the first rearm always writes. Registered with the
  // SqlCounter as `copy`: a rollback may undo an alarm change, and drops it with the others.
  private armed: number | null | undefined;
  // INVARIANT: the sources the session object registers when it builds its stores, in the order
  // the alarm drains them; a new instance registers the same ones.
  private readonly list: DeadlineSource[] = [];
  // INVARIANT: true while a rearm is queued for the end of the current task.
  private rearming = false;
  private discarded = false;
  // INVARIANT: true while this instance's agent loop reads a model stream; a new instance starts
  // with none (a call its predecessor had in flight is re-issued, and sets it again).
  private flowing = false;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly meta: MetaStore,
  ) {}

  watchdog(): number | null {
    return this.meta.number("watchdog_at") ?? null;
  }

  setWatchdog(at: number | null): void {
    if (at === null) this.meta.delete("watchdog_at");
    else this.meta.set("watchdog_at", at);
    this.rearm();
  }

  /** Sources that can wait (the inbox's summary) ask this, and the alarm moves when it changes. */
  streaming(): boolean {
    return this.flowing;
  }

  setStreaming(streaming: boolean): void {
    if (streaming === this.flowing) return;
    this.flowing = streaming;
    this.rearm();
  }

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

  /** The session is being erased: a re-arm already queued must not read its dropped tables. */
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
