// How an MCP tool is named and judged: `mcp__<server>__<tool>` (Claude Code's naming) and a risk
// read from its annotations, which the deployment may override per tool.
import type { ToolRisk } from "../tools/define-tool";
import type { McpToolOverride } from "./mcp-config";
import type { ListedTool } from "./mcp-state";

/** The Messages API accepts tool names of 1-64 letters, digits, `_` and `-`. */
export const MAX_TOOL_NAME_CHARS = 64;

/** The model-facing name, or null when it cannot be one (too long once prefixed). */
export function mcpToolName(server: string, tool: string): string | null {
  const name = `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  return name.length <= MAX_TOOL_NAME_CHARS ? name : null;
}

/**
 * `readOnlyHint` → read, `destructiveHint` → execute, anything else → network (it reaches another
 * system); `idempotentHint` → safe to re-run after an interruption. Hints are the server's claims,
 * so an operator's override wins.
 */
export function mcpToolRisk(
  tool: ListedTool,
  override: McpToolOverride | undefined,
): { risk: ToolRisk; idempotent: boolean } {
  const hints = tool.annotations ?? {};
  const risk: ToolRisk =
    hints.readOnlyHint === true ? "read" : hints.destructiveHint === true ? "execute" : "network";
  const idempotent = hints.idempotentHint === true || hints.readOnlyHint === true;
  return { risk: override?.risk ?? risk, idempotent: override?.idempotent ?? idempotent };
}
