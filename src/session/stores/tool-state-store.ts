// Every tool's own state (src/tools/tool-state.ts), as JSON in one table of the session's SQLite.
import type { SqlCounter } from "../../storage/sql-counter";
import type { ToolStateStore } from "../../tools/tool-state";

export class SqlToolStateStore implements ToolStateStore {
  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {}

  get(tool: string, key: string): unknown {
    const row = this.sql.one<{ value: string }>(
      `SELECT value FROM tool_state WHERE tool = ? AND key = ?`,
      tool,
      key,
    );
    return row ? JSON.parse(row.value) : undefined;
  }

  put(tool: string, key: string, value: unknown): void {
    this.sql.run(
      ["tool_state"],
      `INSERT INTO tool_state (tool, key, value, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (tool, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      tool,
      key,
      JSON.stringify(value),
      this.now(),
    );
  }

  delete(tool: string, key: string): boolean {
    return this.sql.run(["tool_state"], `DELETE FROM tool_state WHERE tool = ? AND key = ?`, tool, key) > 0;
  }
}
