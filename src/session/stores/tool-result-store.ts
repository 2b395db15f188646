// Tool results gathered for assistant messages, and markers for tools that started running
// (so a restart can tell an interrupted run from one that never began).
import * as z from "zod";
import type { ToolResultRecord, ToolResultStore } from "../../agent/ports";
import { lazySchema } from "../../protocol/lazy-schema";
import type { KeptPerKey, SqlCounter } from "../../storage/sql-counter";

type Row = {
  tool_call_id: string;
  name: string;
  content: string;
  is_error: number;
  truncated: number;
  images: string | null;
};

const StoredImages = lazySchema(() =>
  z.array(
    z.object({ mediaType: z.enum(["image/png", "image/jpeg", "image/gif", "image/webp"]), data: z.string() }),
  ),
);

export class SqlToolResultStore implements ToolResultStore {
  // Rows as read, kept until `tool_results` changes: settling a step asks for each of its calls'
  // results several times (before running, after, building the result message). A result this
  // store writes joins them rather than dropping them.
  private readonly rowOf: KeptPerKey<string, Row | null>;

  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {
    this.rowOf = sql.keptPerKey(["tool_results"], (toolCallId: string) =>
      sql.one<Row>(
        `SELECT tool_call_id, name, content, is_error, truncated, images FROM tool_results WHERE tool_call_id = ?`,
        toolCallId,
      ),
    );
  }

  get(toolCallId: string): ToolResultRecord | null {
    const row = this.rowOf(toolCallId);
    if (!row) return null;
    return {
      toolCallId: row.tool_call_id,
      name: row.name,
      content: row.content,
      isError: row.is_error === 1,
      truncated: row.truncated === 1,
      ...(row.images === null ? {} : { images: StoredImages.parse(JSON.parse(row.images)) }),
    };
  }

  put(record: ToolResultRecord): void {
    const row: Row = {
      tool_call_id: record.toolCallId,
      name: record.name,
      content: record.content,
      is_error: record.isError ? 1 : 0,
      truncated: record.truncated ? 1 : 0,
      images: record.images && record.images.length > 0 ? JSON.stringify(record.images) : null,
    };
    // First result wins: a late tool run never overwrites a cancel or timeout result.
    const written = this.sql.run(
      ["tool_results"],
      `INSERT INTO tool_results (tool_call_id, name, content, is_error, truncated, at, images)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tool_call_id) DO NOTHING`,
      row.tool_call_id,
      row.name,
      row.content,
      row.is_error,
      row.truncated,
      this.now(),
      row.images,
    );
    if (written > 0) this.rowOf.patch((rows) => rows.set(row.tool_call_id, row));
  }

  markStarted(toolCallId: string): void {
    this.sql.run(
      ["tool_runs"],
      `INSERT INTO tool_runs (tool_call_id, started_at) VALUES (?, ?) ON CONFLICT (tool_call_id) DO NOTHING`,
      toolCallId,
      this.now(),
    );
  }

  clearStarted(toolCallId: string): void {
    this.sql.run(["tool_runs"], `DELETE FROM tool_runs WHERE tool_call_id = ?`, toolCallId);
  }

  wasStarted(toolCallId: string): boolean {
    return this.sql.one(`SELECT 1 AS x FROM tool_runs WHERE tool_call_id = ?`, toolCallId) !== null;
  }
}
