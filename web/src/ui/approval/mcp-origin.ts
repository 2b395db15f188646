// The line an approval card shows for an MCP tool: which server, the tool's own name and title, and
// the hints it declares about itself (the server's claims, shown as such).
import type { ApprovalRequest } from "../../../../src/interactions/kinds/approval";
import { h } from "../dom";

const HINTS: Array<[key: string, label: string]> = [
  ["readOnlyHint", "read-only"],
  ["destructiveHint", "destructive"],
  ["idempotentHint", "idempotent"],
  ["openWorldHint", "open world"],
];

/** Null for a built-in tool. */
export function mcpOriginLine(request: unknown): HTMLElement | null {
  const mcp = (request as Partial<ApprovalRequest> | null)?.mcp;
  if (!mcp) return null;
  const hints = HINTS.filter(([key]) => mcp.annotations?.[key] === true).map(([, label]) => label);
  return h(
    "p",
    { class: "mcp-origin" },
    "MCP server ",
    h("strong", { text: mcp.server }),
    " · tool ",
    h("code", { text: mcp.tool }),
    mcp.title ? ` · ${mcp.title}` : null,
    hints.length > 0 ? h("span", { class: "mcp-hints", text: ` · server says: ${hints.join(", ")}` }) : null,
  );
}
