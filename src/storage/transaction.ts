// One SQLite transaction for any object: rows its stores keep for the end of the step are written
// before it (outside it) and the rows the work adds inside it, so a rollback takes those too and
// drops every copy of stored rows the object keeps (the rollback may have undone what they copy).
import type { DeferredWrites } from "./deferred-writes";
import type { SqlCounter } from "./sql-counter";

/** What a transaction writes around its work. */
export interface TransactionScope {
  storage: Pick<DurableObjectStorage, "transactionSync">;
  sql: Pick<SqlCounter, "forgetCopies">;
  /** Stores whose rows wait for the end of the step (src/storage/deferred-writes.ts). */
  deferred?: readonly DeferredWrites[];
  /** Written inside the transaction right after the work, before the deferred stores (an event log). */
  log?: Pick<DeferredWrites, "flush">;
  /** Wraps the whole transaction: an event log holds its broadcasts until it commits. */
  around?: <T>(run: () => T) => T;
}

export function atomically<T>(scope: TransactionScope, work: () => T): T {
  const deferred = scope.deferred ?? [];
  for (const store of deferred) store.flush();
  const run = () =>
    scope.storage.transactionSync(() => {
      const result = work();
      scope.log?.flush();
      for (const store of deferred) store.flush();
      return result;
    });
  try {
    return scope.around ? scope.around(run) : run();
  } catch (error) {
    for (const store of deferred) store.discard();
    scope.sql.forgetCopies();
    throw error;
  }
}
