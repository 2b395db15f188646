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

  rearm(): void {
    const next = this.earliest();
    if (next === this.armed) return;
    this.armed = next;
    // Storage operations are ordered and covered by the output gate; no need to await here.
    if (next === null) void this.storage.deleteAlarm();
    else void this.storage.setAlarm(next);
  }

  /** Forget the cached alarm (the platform clears it when it fires). */
  fired(): void {
    this.armed = undefined;
  }
}
