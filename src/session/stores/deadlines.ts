// The session's deadlines on the one alarm (src/objects/deadline-loop.ts), its sources registered by
// src/session/deadlines/session-deadline-sources.ts. The watchdog's time is kept here, since
// the agent loop moves it.
import type { DeadlineScheduler } from "../../agent/ports";
import { DeadlineLoop } from "../../objects/deadline-loop";
import type { MetaStore } from "../../objects/meta-store";

export class AlarmDeadlines extends DeadlineLoop implements DeadlineScheduler {
  // INVARIANT: true while this instance's agent loop reads a model stream; a new instance starts
  // with none (a call its predecessor had in flight is re-issued, and sets it again).
  private flowing = false;

  constructor(
    storage: DurableObjectStorage,
    private readonly meta: MetaStore,
  ) {
    super(storage);
  }

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
}
