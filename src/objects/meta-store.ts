// Typed key/value rows in `meta`: session settings and turn bookkeeping. Values are JSON and are
// validated with zod when read back, like every other JSON that comes out of SQLite.
import * as z from "zod";
import { differ, type SqlCounter } from "../storage/sql-counter";

interface CachedRow {
  /** The stored JSON text, or null when the key has no row. */
  json: string | null;
  // A primitive read back with this very schema: asked for many times a step (status, watchdog, …).
  schema?: z.ZodType;
  value?: unknown;
}

// One schema each, shared by every reader: `get` keeps a primitive only for the schema it was read
// with, and a schema built at each call (`z.number()`) would miss that every time and cost a build.
const NUMBER = z.number();
const STRING = z.string();

export class MetaStore {
  // INVARIANT: mirrors the rows this instance read or wrote: every write goes through this class,
  // and it is registered with the SqlCounter, whose `forgetCopies` (a rollback) drops it. Kept
  // across inputs: an answer cycle reads the same keys (status, turn, watchdog, links, creator) in
  // each of its inputs (the answer, the alarm), each a SQL query otherwise.
  private readonly rows = new Map<string, CachedRow>();
  // INVARIANT: true once every row was read into `rows`, so a key missing there has no row.
  private loaded = false;

  constructor(private readonly sql: SqlCounter) {
    sql.keep({ forget: () => this.forget(), differences: () => this.differences() });
  }

  get<T extends z.ZodType>(key: string, schema: T): z.infer<T> | null {
    let row = this.rows.get(key);
    if (!row) {
      // The first read of a new instance reads them all: a wake asks for a dozen keys (status,
      // turn, mode, creator, links, …), and one statement costs what a dozen small rows do not.
      if (!this.loaded) this.load();
      row = this.rows.get(key) ?? { json: null };
      this.rows.set(key, row);
    }
    if (row.json === null) return null;
    if (row.schema === schema) return row.value as z.infer<T>;
    const value = schema.parse(JSON.parse(row.json));
    // Objects and arrays are parsed afresh on every read: a caller may change what it was given.
    if (value === null || typeof value !== "object") {
      row.schema = schema;
      row.value = value;
    }
    return value;
  }

  /** A number row. The schema is shared, so the value parsed once is kept (see `get`). */
  number(key: string): number | null {
    return this.get(key, NUMBER);
  }

  /** A text row, kept once parsed like `number`. */
  string(key: string): string | null {
    return this.get(key, STRING);
  }

  set(key: string, value: unknown): void {
    const json = JSON.stringify(value);
    // The kept copy mirrors the row: writing what it already holds would change nothing.
    if (this.rows.get(key)?.json === json) return;
    this.sql.run(
      ["meta"],
      `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      key,
      json,
    );
    this.rows.set(key, { json });
  }

  delete(key: string): void {
    const row = this.rows.get(key);
    // Known absent: deleted or never there (every row was read).
    if (row ? row.json === null : this.loaded) return;
    this.sql.run(["meta"], `DELETE FROM meta WHERE key = ?`, key);
    this.rows.set(key, { json: null });
  }

  /** Drops every cached row: a transaction rolled back what this class wrote. */
  private forget(): void {
    this.rows.clear();
    this.loaded = false;
  }

  // Shadow reads: each kept row (a known absence included) against storage.
  private differences(): string[] {
    const stored = new Map(
      this.sql
        .shadowRead(() => this.sql.all<{ key: string; value: string }>(`SELECT key, value FROM meta`))
        .map((row) => [row.key, row.value]),
    );
    const keys = this.loaded ? new Set([...this.rows.keys(), ...stored.keys()]) : this.rows.keys();
    return [...keys].flatMap((key) =>
      differ(`meta row ${key}`, this.rows.get(key)?.json ?? null, stored.get(key) ?? null),
    );
  }

  private load(): void {
    for (const { key, value } of this.sql.all<{ key: string; value: string }>(
      `SELECT key, value FROM meta`,
    )) {
      // A row this instance wrote or read already is as fresh as storage.
      if (!this.rows.has(key)) this.rows.set(key, { json: value });
    }
    this.loaded = true;
  }
}
