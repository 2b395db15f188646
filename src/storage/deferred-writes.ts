// A store that keeps the rows a step adds in memory and writes them in one statement when the
// step's microtask turn ends (a statement costs far more than the rows it writes), or sooner on
// `flush`: before anything reads its table, and inside a transaction, whose rollback `discard`s them.
// A row leaves memory only once stored; a write storage refuses is reported, never swallowed.
export interface DeferredWrites {
  flush(): void;
  discard(): void;
}

/**
 * `flush`, called once at the end of the current microtask turn however often this is asked. Its
 * failure has no caller left to hear it, so it goes to `failed` (which must not throw).
 */
export function atEndOfStep(flush: () => void, failed: (error: unknown) => void): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      try {
        flush();
      } catch (error) {
        failed(error);
      }
    });
  };
}
