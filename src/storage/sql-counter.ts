// A thin wrapper over the Durable Object's SQL API that counts rows read and written, so the
// session can report its own storage cost (GET …/stats, the benchmark's storage scenario), and
// keeps the one list of copies of stored rows an object holds: each write statement declares the
// tables it changes where it is written, and a copy is dropped when one of its tables changes.
export type SqlValue = string | number | null | ArrayBuffer;

/** The tables a write statement changes, declared beside the statement. */
export type Tables = readonly string[];

/** A read kept until one of its tables is written (`SqlCounter.keptUntilWritten`). */
export interface Kept<T> {
  (): T;
  /**
   * Call right after a write of the caller's own changed rows of the tables: `change` brings the
   * kept value up to date with that write instead of a read again. Only when that write changed
   * rows and nothing else changed those tables since the value was read; otherwise the value is
   * read afresh on next use.
   */
  patch(change: (value: T) => T): void;
}

/** Reads by key, kept until one of their tables is written (`SqlCounter.keptPerKey`). */
export interface KeptPerKey<K, T> {
  (key: K): T;
  /** As `Kept.patch`, for the values kept so far (keys not asked for yet are read when asked). */
  patch(change: (values: Map<K, T>) => void): void;
  /** The value kept for `key`, without reading it when none is. */
  peek(key: K): T | undefined;
}

/**
 * A copy of stored rows some part of an object keeps across inputs, registered with the object's
 * `SqlCounter` so that dropping copies (a rollback, a test's own SQL) cannot miss one.
 */
export interface KeptCopy {
  /** Drops the copy: the next use reads storage. */
  forget(): void;
  /** Shadow reads: what differs between the copy and a fresh read (nothing, when it is not kept now). */
  differences(): string[] | Promise<string[]>;
}

/** Bound parameters one statement may carry on the platform. */
const MAX_BINDINGS = 100;

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
  // such stamp and the one before it. A rollback, a change made behind this class, or a read
  // statement that wrote rows moves `floor`, which counts as a change of every table.
  private stamp = 0;
  private floor = 0;
  private readonly changed = new Map<string, { last: number; before: number }>();
  // INVARIANT: every copy of stored rows this object keeps; they live and die with it.
  private readonly copies: KeptCopy[] = [];
  // True while shadow reads run: their statements are not the object's own cost.
  private uncounted = false;

  /**
   * Hears a deferred write that storage refused after its step ended (src/storage/deferred-writes.ts):
   * the session stops its turn with an error every device sees. Must not throw.
   */
  onDeferredWriteFailure: (error: unknown) => void = (error) =>
    console.error("A deferred write failed", error);

  constructor(private readonly sql: SqlStorage) {}

  /** A write statement that changes `tables` (and no others); answers the rows it wrote. */
  run(tables: Tables, query: string, ...bindings: SqlValue[]): number {
    const cursor = this.sql.exec(query, ...bindings);
    cursor.toArray();
    this.count(cursor, tables);
    return cursor.rowsWritten;
  }

  /** A write statement that changes `tables` and answers a row (`… RETURNING`). */
  runReturning<T extends Record<string, SqlStorageValue>>(
    tables: Tables,
    query: string,
    ...bindings: SqlValue[]
  ): T | null {
    const cursor = this.sql.exec<T>(query, ...bindings);
    const rows = cursor.toArray();
    this.count(cursor, tables);
    return rows[0] ?? null;
  }

  all<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlValue[]): T[] {
    const cursor = this.sql.exec<T>(query, ...bindings);
    const rows = cursor.toArray();
    this.count(cursor, null);
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
  insertRows(tables: Tables, head: string, rows: readonly (readonly SqlValue[])[]): void {
    const width = rows[0]?.length ?? 0;
    if (width === 0) return;
    const tuple = `(${Array.from({ length: width }, () => "?").join(", ")})`;
    const perStatement = Math.floor(MAX_BINDINGS / width);
    for (let start = 0; start < rows.length; start += perStatement) {
      const chunk = rows.slice(start, start + perStatement);
      try {
        this.run(tables, `${head} VALUES ${chunk.map(() => tuple).join(", ")}`, ...chunk.flat());
      } catch (error) {
        throw new InsertFailed(start, error);
      }
    }
  }

  *iterate<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlValue[]): Generator<T> {
    const cursor = this.sql.exec<T>(query, ...bindings);
    for (const row of cursor) yield row;
    this.count(cursor, null);
  }

  /**
   * `read`, kept until a write changes one of `tables`. For reads asked for far more often than
   * their tables change: the alarm's deadline sources are read on every re-arm, several a step.
   */
  keptUntilWritten<T>(tables: Tables, read: () => T): Kept<T> {
    const slot = this.slot(tables, read);
    this.keep({
      forget: slot.forget,
      differences: () =>
        slot.valid() ? differ(`a kept read of ${tables.join(", ")}`, slot.peek(), this.shadowRead(read)) : [],
    });
    const kept = (() => slot.get()) as Kept<T>;
    kept.patch = slot.patch;
    return kept;
  }

  /**
   * `read(key)` for each key asked, kept until a write changes one of `tables` (every key's value
   * goes then). For rows looked up by id several times a step: a card, a tool call's result.
   */
  keptPerKey<K, T>(tables: Tables, read: (key: K) => T): KeptPerKey<K, T> {
    // An empty map costs no read: each key is read when first asked.
    const slot = this.slot(tables, () => new Map<K, T>());
    this.keep({
      forget: slot.forget,
      differences: () => {
        if (!slot.valid()) return [];
        return [...slot.peek()].flatMap(([key, value]) =>
          differ(
            `a kept read of ${tables.join(", ")} for ${String(key)}`,
            value,
            this.shadowRead(() => read(key)),
          ),
        );
      },
    });
    // Until the first lookup nothing is kept; a patch then starts the (empty) map.
    let started = false;
    const get = ((key: K) => {
      started = true;
      const values = slot.get();
      if (values.has(key)) return values.get(key) as T;
      const value = read(key);
      values.set(key, value);
      return value;
    }) as KeptPerKey<K, T>;
    get.peek = (key) => (slot.valid() ? slot.peek().get(key) : undefined);
    get.patch = (change) => {
      if (!started) {
        started = true;
        // The empty map holds nothing the write could have changed: it counts as read before it.
        slot.startBeforeLatestWrite();
      }
      slot.patch((values) => {
        change(values);
        return values;
      });
    };
    return get;
  }

  // One kept value: read again once a write changed one of `tables` since it was read.
  private slot<T>(tables: Tables, read: () => T) {
    let value: T;
    let readAt = -1;
    const valid = () => readAt >= 0 && !this.changedSince(tables, readAt);
    return {
      valid,
      /** The value as kept (only meaningful while `valid`). */
      peek: () => value,
      get: (): T => {
        if (!valid()) {
          value = read();
          readAt = this.stamp;
        }
        return value;
      },
      patch: (change: (value: T) => T) => {
        if (readAt < 0 || !this.onlyLatestWriteSince(tables, readAt)) return;
        value = change(value);
        readAt = this.stamp;
      },
      forget: () => {
        readAt = -1;
      },
      /** Reads now, as of just before the latest write (for a value that no write can make stale). */
      startBeforeLatestWrite: () => {
        value = read();
        readAt = Math.max(this.floor, this.stamp - 1);
      },
    };
  }

  /** Registers a copy of stored rows kept in some other shape (see `KeptCopy`). */
  keep(copy: KeptCopy): void {
    this.copies.push(copy);
  }

  /** Rows may have changed behind this class (a rolled-back transaction, a test's own SQL). */
  invalidate(): void {
    this.stamp += 1;
    this.floor = this.stamp;
  }

  /** Drops every kept copy, so the next reads go to storage (a rollback, a test's own SQL). */
  forgetCopies(): void {
    this.invalidate();
    for (const copy of this.copies) copy.forget();
  }

  /**
   * Shadow reads: compares every kept copy with a fresh read of storage and answers what differs.
   * The reads are not counted as this object's own.
   */
  async differences(): Promise<string[]> {
    const found: string[] = [];
    for (const copy of this.copies) found.push(...(await copy.differences()));
    return found;
  }

  /** `read()`, not counted as the object's own statements. */
  shadowRead<T>(read: () => T): T {
    const counted = { statements: this.statements, rowsRead: this.rowsRead, rowsWritten: this.rowsWritten };
    this.uncounted = true;
    try {
      return read();
    } finally {
      this.uncounted = false;
      Object.assign(this, counted);
    }
  }

  private changedSince(tables: Tables, at: number): boolean {
    if (this.floor > at) return true;
    return tables.some((table) => (this.changed.get(table)?.last ?? 0) > at);
  }

  // Whether the latest write changed rows of `tables`, after stamp `at`, and is the only change
  // to them since (the caller's own).
  private onlyLatestWriteSince(tables: Tables, at: number): boolean {
    if (this.floor > at || this.stamp <= at) return false;
    let latest = false;
    for (const table of tables) {
      const changed = this.changed.get(table);
      if (!changed || changed.last <= at) continue;
      if (changed.last !== this.stamp || changed.before > at) return false;
      latest = true;
    }
    return latest;
  }

  get databaseSize(): number {
    return this.sql.databaseSize;
  }

  // `tables`: what a write statement declared it changes; null for a read, whose writing rows
  // (none should) counts as a change of every table.
  private count(cursor: SqlStorageCursor<Record<string, SqlStorageValue>>, tables: Tables | null): void {
    if (this.uncounted) return;
    this.statements += 1;
    this.rowsRead += cursor.rowsRead;
    this.rowsWritten += cursor.rowsWritten;
    if (cursor.rowsWritten === 0) return;
    this.stamp += 1;
    if (!tables) {
      this.floor = this.stamp;
      return;
    }
    for (const table of tables) {
      this.changed.set(table, { last: this.stamp, before: this.changed.get(table)?.last ?? 0 });
    }
  }
}

/** What differs between a kept value and a fresh read, described for a failing test. */
export function differ(what: string, kept: unknown, fresh: unknown): string[] {
  const a = JSON.stringify(kept, mapsAsEntries);
  const b = JSON.stringify(fresh, mapsAsEntries);
  return a === b ? [] : [`${what}: kept ${a.slice(0, 400)}, storage has ${b.slice(0, 400)}`];
}

function mapsAsEntries(_key: string, value: unknown): unknown {
  return value instanceof Map ? [...value.entries()] : value;
}
