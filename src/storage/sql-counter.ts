// A thin wrapper over the Durable Object's SQL API that counts rows read and written, so the
// session can report its own storage cost (GET …/stats, the benchmark's storage scenario), and
// notes which table each write changed, so a read of a few tables can be kept until one changes.
export type SqlValue = string | number | null | ArrayBuffer;

/** The table a write statement names first (the one it changes). */
const WRITTEN_TABLE = /^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)/i;

export class SqlCounter {
  // INVARIANT: statistics for this instance only; losing them on eviction loses nothing else.
  rowsRead = 0;
  rowsWritten = 0;

  // INVARIANT: `stamp` grows with every write that changed rows; `changed` holds each table's last
  // such stamp. A rollback, a change made behind this class, or a write whose table this class
  // cannot name moves `floor`, which counts as a change of every table.
  private stamp = 0;
  private floor = 0;
  private readonly changed = new Map<string, number>();
  // The table each write statement changes, by its text (statements are constants of the code).
  private readonly writtenTables = new Map<string, string | null>();

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

  *iterate<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlValue[]): Generator<T> {
    const cursor = this.sql.exec<T>(query, ...bindings);
    for (const row of cursor) yield row;
    this.count(cursor, query);
  }

  /**
   * `read`, kept until a write changes one of `tables`. For reads asked for far more often than
   * their tables change: the alarm's deadline sources are read on every re-arm, several a step.
   */
  keptUntilWritten<T>(tables: readonly string[], read: () => T): () => T {
    let value: T;
    let readAt = -1;
    return () => {
      if (readAt < 0 || this.changedSince(tables, readAt)) {
        value = read();
        readAt = this.stamp;
      }
      return value;
    };
  }

  /**
   * `read(key)` for each key asked, kept until a write changes one of `tables` (every key's value
   * goes then). For rows looked up by id several times a step: a card, a tool call's result.
   */
  keptPerKey<K, T>(tables: readonly string[], read: (key: K) => T): (key: K) => T {
    const kept = this.keptUntilWritten(tables, () => new Map<K, T>());
    return (key) => {
      const values = kept();
      if (values.has(key)) return values.get(key) as T;
      const value = read(key);
      values.set(key, value);
      return value;
    };
  }

  /** Rows may have changed behind this class (a rolled-back transaction, a test's own SQL). */
  invalidate(): void {
    this.stamp += 1;
    this.floor = this.stamp;
  }

  private changedSince(tables: readonly string[], at: number): boolean {
    if (this.floor > at) return true;
    return tables.some((table) => (this.changed.get(table) ?? 0) > at);
  }

  get databaseSize(): number {
    return this.sql.databaseSize;
  }

  private count(cursor: SqlStorageCursor<Record<string, SqlStorageValue>>, query: string): void {
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
    if (table) this.changed.set(table, this.stamp);
    else this.floor = this.stamp;
  }
}
