// Long-poll waiters of `GET …/interactions/:id?wait=S`: each waits for its interaction to resolve
// or for its time to end, whichever comes first. Nothing polls: a stored resolution settles them.

/** Starts a timer; returns a function that cancels it. */
export type SetTimer = (callback: () => void, ms: number) => () => void;

export const realTimer: SetTimer = (callback, ms) => {
  const handle = setTimeout(callback, ms);
  return () => clearTimeout(handle);
};

export class InteractionWaiters {
  // INVARIANT: wake-ups for requests this instance is answering right now. A waiter lost with the
  // instance loses nothing: its request fails over to a plain read of the stored interaction.
  private readonly waiting = new Map<string, Set<() => void>>();
  // INVARIANT: observers of the count (tests waiting for a read to start); lost with the instance
  // along with the waiters they count.
  private readonly watchers = new Set<() => void>();

  constructor(private readonly setTimer: SetTimer = realTimer) {}

  /** Resolves when `interactionId` is settled or after `ms`, whichever is first. */
  wait(interactionId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      let set = this.waiting.get(interactionId);
      if (!set) {
        set = new Set();
        this.waiting.set(interactionId, set);
      }
      const waiters = set;
      let cancelTimer = () => {};
      const done = () => {
        cancelTimer();
        waiters.delete(done);
        if (waiters.size === 0 && this.waiting.get(interactionId) === waiters)
          this.waiting.delete(interactionId);
        resolve();
      };
      waiters.add(done);
      cancelTimer = this.setTimer(done, ms);
      for (const watch of [...this.watchers]) watch();
    });
  }

  /** Wakes every waiter of `interactionId` (its resolution was just stored). */
  settle(interactionId: string): void {
    for (const done of [...(this.waiting.get(interactionId) ?? [])]) done();
  }

  /** Resolves once at least `n` requests wait: a signal, so nobody polls the count. */
  untilWaiting(n: number): Promise<void> {
    return new Promise((resolve) => {
      const watch = () => {
        if (this.size < n) return;
        this.watchers.delete(watch);
        resolve();
      };
      this.watchers.add(watch);
      watch();
    });
  }

  /** How many requests wait right now. */
  get size(): number {
    let total = 0;
    for (const set of this.waiting.values()) total += set.size;
    return total;
  }
}
