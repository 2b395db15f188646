// One alarm, many deadlines: the alarm is always the earliest of the pending interactions'
// deadlines, the running turn's watchdog and any other due rows (notification deliveries), and is
// deleted when there is none.
import { z } from "zod";
import type { DeadlineScheduler } from "../agent/ports";
import type { SqlInteractionStore } from "./interaction-store";
import type { MetaStore } from "./meta-store";

export class AlarmDeadlines implements DeadlineScheduler {
  // INVARIANT: mirrors the alarm this instance last set, to skip redundant setAlarm calls;
  // undefined (unknown) in a new instance, so the first rearm always writes.
  private armed: number | null | undefined;
  // Deadlines kept outside this class (retention, link expiry, notification deliveries); each says its next time or null.
  private readonly sources: Array<() => number | null> = [];
  // INVARIANT: true while a rearm is queued for the end of the current task.
  private rearming = false;
  private discarded = false;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly meta: MetaStore,
    private readonly interactions: SqlInteractionStore,
  ) {}

  watchdog(): number | null {
    return this.meta.get("watchdog_at", z.number()) ?? null;
  }

  setWatchdog(at: number | null): void {
    if (at === null) this.meta.delete("watchdog_at");
    else this.meta.set("watchdog_at", at);
    this.rearm();
  }

  /** Adds a deadline source the alarm must also wake for. */
  addSource(source: () => number | null): void {
    this.sources.push(source);
  }

  earliest(): number | null {
    const candidates = [
      this.interactions.earliestDeadline(),
      this.watchdog(),
      ...this.sources.map((source) => source()),
    ].filter((value): value is number => value !== null);
    return candidates.length > 0 ? Math.min(...candidates) : null;
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
