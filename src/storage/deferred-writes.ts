// A store that keeps the rows a step adds in memory and writes them in one statement when the
// step's microtask turn ends (a statement costs far more than the rows it writes), or sooner on
// `flush`: before anything reads its table, and inside a transaction, whose rollback `discard`s them.
export interface DeferredWrites {
  flush(): void;
  discard(): void;
}

/** `flush`, called once at the end of the current microtask turn however often this is asked. */
export function atEndOfStep(flush: () => void): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      flush();
    });
  };
}
