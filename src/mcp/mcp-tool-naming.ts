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
 * `readOnlyHint` → read (only when the deployment trusts the server's annotations; else network, so
 * a person is asked), `destructiveHint` → execute, anything else → network (it reaches another
 * system); `idempotentHint` → safe to re-run after an interruption. Hints are the server's claims,
 * so an operator's override wins.
 */
export function mcpToolRisk(
  tool: ListedTool,
  override: McpToolOverride | undefined,
  trustAnnotations = false,
): { risk: ToolRisk; idempotent: boolean } {
  const hints = tool.annotations ?? {};
  const readOnly = hints.readOnlyHint === true && trustAnnotations;
  const risk: ToolRisk = readOnly ? "read" : hints.destructiveHint === true ? "execute" : "network";
  const idempotent = hints.idempotentHint === true || hints.readOnlyHint === true;
  return { risk: override?.risk ?? risk, idempotent: override?.idempotent ?? idempotent };
}

const RISK_RANK = { read: 0, network: 1, execute: 2 } as const;

function hintRank(tool: ListedTool): number {
  const hints = tool.annotations ?? {};
  return hints.readOnlyHint === true
    ? RISK_RANK.read
    : hints.destructiveHint === true
      ? RISK_RANK.execute
      : RISK_RANK.network;
}

/**
 * A new listing with each tool's risk hints pinned to the earlier listing's where the new ones are
 * looser (a tool that turns "read-only" later keeps asking), so a server cannot relax what a person
 * saw; stricter hints take effect at once.
 */
export function pinRiskHints(earlier: readonly ListedTool[] | null, next: ListedTool[]): ListedTool[] {
  if (!earlier) return next;
  const before = new Map(earlier.map((tool) => [tool.name, tool]));
  return next.map((tool) => {
    const pinned = before.get(tool.name);
    if (!pinned || hintRank(tool) >= hintRank(pinned)) return tool;
    const { readOnlyHint: _r, destructiveHint: _d, idempotentHint: _i, ...rest } = tool.annotations ?? {};
    const kept = pinned.annotations ?? {};
    return {
      ...tool,
      annotations: {
        ...rest,
        ...(kept.readOnlyHint === undefined ? {} : { readOnlyHint: kept.readOnlyHint }),
        ...(kept.destructiveHint === undefined ? {} : { destructiveHint: kept.destructiveHint }),
        ...(kept.idempotentHint === undefined ? {} : { idempotentHint: kept.idempotentHint }),
      },
    };
  });
}
