// Typed key/value rows in `meta`: session settings and turn bookkeeping. Values are JSON and are
// validated with zod when read back, like every other JSON that comes out of SQLite.
import type { z } from "zod";
import type { SqlCounter } from "../storage/sql-counter";

export class MetaStore {
  constructor(private readonly sql: SqlCounter) {}

  get<T extends z.ZodType>(key: string, schema: T): z.infer<T> | null {
    const row = this.sql.one<{ value: string }>(`SELECT value FROM meta WHERE key = ?`, key);
    return row ? schema.parse(JSON.parse(row.value)) : null;
  }

  set(key: string, value: unknown): void {
    this.sql.run(
      `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      key,
      JSON.stringify(value),
    );
  }

  delete(key: string): void {
    this.sql.run(`DELETE FROM meta WHERE key = ?`, key);
  }
}
