// A thin wrapper over the Durable Object's SQL API that counts rows read and written, so the
// session can report its own storage cost (GET …/stats, the benchmark's storage scenario).
export type SqlValue = string | number | null | ArrayBuffer;

export class SqlCounter {
  // INVARIANT: statistics for this instance only; losing them on eviction loses nothing else.
  rowsRead = 0;
  rowsWritten = 0;

  constructor(private readonly sql: SqlStorage) {}

  run(query: string, ...bindings: SqlValue[]): number {
    const cursor = this.sql.exec(query, ...bindings);
    cursor.toArray();
    this.count(cursor);
    return cursor.rowsWritten;
  }

  all<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlValue[]): T[] {
    const cursor = this.sql.exec<T>(query, ...bindings);
    const rows = cursor.toArray();
    this.count(cursor);
    return rows;
  }

  one<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlValue[]): T | null {
    return this.all<T>(query, ...bindings)[0] ?? null;
  }

  *iterate<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlValue[]): Generator<T> {
    const cursor = this.sql.exec<T>(query, ...bindings);
    for (const row of cursor) yield row;
    this.count(cursor);
  }

  get databaseSize(): number {
    return this.sql.databaseSize;
  }

  private count(cursor: SqlStorageCursor<Record<string, SqlStorageValue>>): void {
    this.rowsRead += cursor.rowsRead;
    this.rowsWritten += cursor.rowsWritten;
  }
}
