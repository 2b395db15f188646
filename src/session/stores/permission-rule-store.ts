// "Always allow this tool for this session" decisions.
import type { PermissionRuleStore } from "../../agent/ports";
import type { SqlCounter } from "../../storage/sql-counter";

export class SqlPermissionRuleStore implements PermissionRuleStore {
  constructor(
    private readonly sql: SqlCounter,
    private readonly now: () => number,
  ) {}

  allowed(): Set<string> {
    return new Set(
      this.sql
        .all<{ tool_name: string }>(`SELECT tool_name FROM permission_rules WHERE behavior = 'allow'`)
        .map((row) => row.tool_name),
    );
  }

  allow(toolName: string): void {
    this.sql.run(
      ["permission_rules"],
      `INSERT INTO permission_rules (tool_name, behavior, at) VALUES (?, 'allow', ?)
       ON CONFLICT (tool_name) DO UPDATE SET behavior = 'allow', at = excluded.at`,
      toolName,
      this.now(),
    );
  }
}
