// Session notes for the notes tools, stored in the session's own SQLite.

import type { SqlCounter } from "../../storage/sql-counter";
import type { Note, NotesStore } from "../../tools/define-tool";

type Row = { key: string; text: string; updated_at: number };

export class SqlNotesStore implements NotesStore {
  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {}

  list(): Note[] {
    return this.sql.all<Row>(`SELECT key, text, updated_at FROM notes ORDER BY key`).map(toNote);
  }

  get(key: string): Note | null {
    const row = this.sql.one<Row>(`SELECT key, text, updated_at FROM notes WHERE key = ?`, key);
    return row ? toNote(row) : null;
  }

  put(key: string, text: string): Note {
    const updatedAt = this.now();
    this.sql.run(
      ["notes"],
      `INSERT INTO notes (key, text, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at`,
      key,
      text,
      updatedAt,
    );
    return { key, text, updatedAt };
  }

  delete(key: string): boolean {
    return this.sql.run(["notes"], `DELETE FROM notes WHERE key = ?`, key) > 0;
  }
}

function toNote(row: Row): Note {
  return { key: row.key, text: row.text, updatedAt: row.updated_at };
}
