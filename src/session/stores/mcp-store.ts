// The session's MCP servers in SQLite: which ones it uses, each one's session id, protocol version
// and cached tool list, so any instance can offer the tools and reconnect without asking again.
import * as z from "zod";
import { McpCallState, type McpCallStore } from "../../mcp/mcp-rounds";
import {
  ListedTool,
  type McpConnectionRecord,
  type McpServerRecord,
  type McpStateStore,
} from "../../mcp/mcp-state";
import { pinRiskHints } from "../../mcp/mcp-tool-naming";
import type { MetaStore } from "../../objects/meta-store";
import type { SqlCounter } from "../../storage/sql-counter";

type Row = {
  name: string;
  session_id: string | null;
  protocol_version: string | null;
  discover: string | null;
  tools: string | null;
  listed_at: number | null;
  stale: number;
  error: string | null;
  failed_at: number | null;
};

const SELECTED_KEY = "mcp_servers";

/** MCP tool calls waiting for input (2026-07-28 `input_required`), by tool call id. */
export class SqlMcpCallStore implements McpCallStore {
  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {}

  get(toolCallId: string): McpCallState | null {
    const row = this.sql.one<{ state: string }>(
      `SELECT state FROM mcp_calls WHERE tool_call_id = ?`,
      toolCallId,
    );
    return row ? McpCallState.parse(JSON.parse(row.state)) : null;
  }

  save(toolCallId: string, server: string, state: McpCallState): void {
    this.sql.run(
      ["mcp_calls"],
      `INSERT INTO mcp_calls (tool_call_id, server, state, at) VALUES (?, ?, ?, ?)
       ON CONFLICT (tool_call_id) DO UPDATE SET state = excluded.state, at = excluded.at`,
      toolCallId,
      server,
      JSON.stringify(state),
      this.now(),
    );
  }
}

export class SqlMcpStore implements McpStateStore {
  constructor(
    private readonly sql: SqlCounter,
    private readonly meta: MetaStore,
  ) {}

  select(names: string[]): void {
    this.meta.set(SELECTED_KEY, names);
  }

  selected(): string[] {
    return this.meta.get(SELECTED_KEY, z.array(z.string())) ?? [];
  }

  get(name: string): McpServerRecord {
    const row = this.sql.one<Row>(`SELECT * FROM mcp_servers WHERE name = ?`, name);
    if (!row) {
      return {
        name,
        sessionId: null,
        protocolVersion: null,
        discover: null,
        tools: null,
        listedAt: null,
        stale: false,
        error: null,
        failedAt: null,
      };
    }
    return {
      name,
      sessionId: row.session_id,
      protocolVersion: row.protocol_version,
      discover: row.discover === null ? null : JSON.parse(row.discover),
      // A row that no longer parses (a schema change) is a list to fetch again, not a crash.
      tools: row.tools === null ? null : (ListedTool.array().safeParse(JSON.parse(row.tools)).data ?? null),
      listedAt: row.listed_at,
      stale: row.stale === 1,
      error: row.error,
      failedAt: row.failed_at,
    };
  }

  saveConnection(name: string, connection: McpConnectionRecord): void {
    this.ensure(name);
    this.sql.run(
      ["mcp_servers"],
      `UPDATE mcp_servers SET session_id = ?, protocol_version = ?, discover = ? WHERE name = ?`,
      connection.sessionId,
      connection.protocolVersion,
      connection.discover === null || connection.discover === undefined
        ? null
        : JSON.stringify(connection.discover),
      name,
    );
  }

  forgetConnection(name: string): void {
    this.saveConnection(name, { sessionId: null, protocolVersion: null, discover: null });
  }

  saveTools(name: string, tools: ListedTool[], at: number): void {
    this.ensure(name);
    // Risk hints stay as the session's first listing had them unless they grow stricter.
    const pinned = pinRiskHints(this.get(name).tools, tools);
    this.sql.run(
      ["mcp_servers"],
      `UPDATE mcp_servers SET tools = ?, listed_at = ?, stale = 0, error = NULL, failed_at = NULL WHERE name = ?`,
      JSON.stringify(pinned),
      at,
      name,
    );
  }

  markStale(name: string): void {
    this.ensure(name);
    this.sql.run(["mcp_servers"], `UPDATE mcp_servers SET stale = 1 WHERE name = ?`, name);
  }

  saveError(name: string, message: string, at: number): void {
    this.ensure(name);
    this.sql.run(
      ["mcp_servers"],
      `UPDATE mcp_servers SET error = ?, failed_at = ? WHERE name = ?`,
      message,
      at,
      name,
    );
  }

  private ensure(name: string): void {
    this.sql.run(
      ["mcp_servers"],
      `INSERT INTO mcp_servers (name, stale) VALUES (?, 0) ON CONFLICT (name) DO NOTHING`,
      name,
    );
  }
}
