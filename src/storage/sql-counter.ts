// A thin wrapper over the Durable Object's SQL API that counts rows read and written, so the
// session can report its own storage cost (GET …/stats, the benchmark's storage scenario), and
// notes which table each write changed, so a read of a few tables can be kept until one changes.
export type SqlValue = string | number | null | ArrayBuffer;

/** A read kept until one of its tables is written (`SqlCounter.keptUntilWritten`). */
export interface Kept<T> {
  (): T;
  /**
   * Call right after a write of the caller's own changed one of the tables: `change` brings the
   * kept value up to date with that write instead of a read again. Only when nothing else changed
   * those tables since the value was read; otherwise the value is read afresh on next use.
   */
  patch(change: (value: T) => T): void;
}

/** Reads by key, kept until one of their tables is written (`SqlCounter.keptPerKey`). */
export interface KeptPerKey<K, T> {
  (key: K): T;
  /** As `Kept.patch`, for the values kept so far (keys not asked for yet are read when asked). */
  patch(change: (values: Map<K, T>) => void): void;
}

/** Bound parameters one statement may carry on the platform. */
const MAX_BINDINGS = 100;

/** The table a write statement names first (the one it changes). */
const WRITTEN_TABLE = /^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)/i;

/** `insertRows` stopped: its first `stored` rows went in (earlier statements), the rest did not. */
export class InsertFailed extends Error {
  constructor(
    readonly stored: number,
    cause: unknown,
  ) {
    super(`Storage refused a write: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "InsertFailed";
  }
}

export class SqlCounter {
  // INVARIANT: statistics for this instance only; losing them on eviction loses nothing else.
  rowsRead = 0;
  rowsWritten = 0;
  /** Statements run: each costs far more than the few rows most of them touch. */
  statements = 0;

  // INVARIANT: `stamp` grows with every write that changed rows; `changed` holds each table's last
  // such stamp and the one before it. A rollback, a change made behind this class, or a write whose
  // table this class cannot name moves `floor`, which counts as a change of every table.
  private stamp = 0;
  private floor = 0;
  private readonly changed = new Map<string, { last: number; before: number }>();
  // The table each write statement changes, by its text (statements are constants of the code).
  private readonly writtenTables = new Map<string, string | null>();

  /**
   * Hears a deferred write that storage refused after its step ended (src/storage/deferred-writes.ts):
   * the session stops its turn with an error every device sees. Must not throw.
   */
  onDeferredWriteFailure: (error: unknown) => void = (error) =>
    console.error("A deferred write failed", error);

  constructor(private readonly sql: SqlStorage) {}

  run(query: string, ...bindings: SqlValue[]): number {
    const cursor = this.sql.exec(query, ...bindings);
    cursor.toArray();
    this.count(cursor, query);
    return cursor.rowsWritten;
  }

  all<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlValue[]): T[] {
    const cursor = this.sql.exec<T>(query, ...bindings);
    const rows = cursor.toArray();
    this.count(cursor, query);
    return rows;
  }

  one<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlValue[]): T | null {
    return this.all<T>(query, ...bindings)[0] ?? null;
  }

  /**
   * One `INSERT` (`head`, up to `VALUES`) for many rows of the same width: a statement costs far
   * more than the rows it writes. Chunked under the platform's bound-parameter limit; a chunk that
   * fails throws `InsertFailed`, saying how many rows the chunks before it stored.
   */
  insertRows(head: string, rows: readonly (readonly SqlValue[])[]): void {
    const width = rows[0]?.length ?? 0;
    if (width === 0) return;
    const tuple = `(${Array.from({ length: width }, () => "?").join(", ")})`;
    const perStatement = Math.floor(MAX_BINDINGS / width);
    for (let start = 0; start < rows.length; start += perStatement) {
      const chunk = rows.slice(start, start + perStatement);
      try {
        this.run(`${head} VALUES ${chunk.map(() => tuple).join(", ")}`, ...chunk.flat());
      } catch (error) {
        throw new InsertFailed(start, error);
      }
    }
  }

  *iterate<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlValue[]): Generator<T> {
    const cursor = this.sql.exec<T>(query, ...bindings);
    for (const row of cursor) yield row;
    this.count(cursor, query);
  }

  /**
   * `read`, kept until a write changes one of `tables`. For reads asked for far more often than
   * their tables change: the alarm's deadline sources are read on every re-arm, several a step.
   */
  keptUntilWritten<T>(tables: readonly string[], read: () => T): Kept<T> {
    let value: T;
    let readAt = -1;
    const kept = (() => {
      if (readAt < 0 || this.changedSince(tables, readAt)) {
        value = read();
        readAt = this.stamp;
      }
      return value;
    }) as Kept<T>;
    kept.patch = (change) => {
      if (readAt < 0 || !this.onlyLatestWriteSince(tables, readAt)) return;
      value = change(value);
      readAt = this.stamp;
    };
    return kept;
  }

  /**
   * `read(key)` for each key asked, kept until a write changes one of `tables` (every key's value
   * goes then). For rows looked up by id several times a step: a card, a tool call's result.
   */
  keptPerKey<K, T>(tables: readonly string[], read: (key: K) => T): KeptPerKey<K, T> {
    const kept = this.keptUntilWritten(tables, () => new Map<K, T>());
    // Until the first lookup nothing is kept; an empty map costs no read, so a patch then starts one.
    let started = false;
    const get = ((key: K) => {
      started = true;
      const values = kept();
      if (values.has(key)) return values.get(key) as T;
      const value = read(key);
      values.set(key, value);
      return value;
    }) as KeptPerKey<K, T>;
    get.patch = (change) => {
      if (!started) {
        started = true;
        kept();
      }
      kept.patch((values) => {
        change(values);
        return values;
      });
    };
    return get;
  }

  /** Rows may have changed behind this class (a rolled-back transaction, a test's own SQL). */
  invalidate(): void {
    this.stamp += 1;
    this.floor = this.stamp;
  }

  private changedSince(tables: readonly string[], at: number): boolean {
    if (this.floor > at) return true;
    return tables.some((table) => (this.changed.get(table)?.last ?? 0) > at);
  }

  // Whether every change to `tables` since stamp `at` is the latest write (the caller's own).
  private onlyLatestWriteSince(tables: readonly string[], at: number): boolean {
    if (this.floor > at) return false;
    return tables.every((table) => {
      const changed = this.changed.get(table);
      if (!changed || changed.last <= at) return true;
      return changed.last === this.stamp && changed.before <= at;
    });
  }

  get databaseSize(): number {
    return this.sql.databaseSize;
  }

  private count(cursor: SqlStorageCursor<Record<string, SqlStorageValue>>, query: string): void {
    this.statements += 1;
    this.rowsRead += cursor.rowsRead;
    this.rowsWritten += cursor.rowsWritten;
    if (cursor.rowsWritten === 0) return;
    this.stamp += 1;
    let table = this.writtenTables.get(query);
    if (table === undefined) {
      table = WRITTEN_TABLE.exec(query)?.[1]?.toLowerCase() ?? null;
      // A statement built with a varying list (`IN (?, ?, …)`) must not grow this without end.
      if (this.writtenTables.size >= 256) this.writtenTables.clear();
      this.writtenTables.set(query, table);
    }
    if (table) this.changed.set(table, { last: this.stamp, before: this.changed.get(table)?.last ?? 0 });
    else this.floor = this.stamp;
  }
}
