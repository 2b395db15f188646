// What an MCP tool's call does, by its server's own annotations from its tools list (never from
// the call): read-only is low, destructive high, anything else medium, and open-world says so.

import { type Finding, finding } from "./assessment";

/** The MCP origin Parley keeps for a tool it lists: the server, the tool, and its annotations. */
export interface McpOrigin {
  server: string;
  tool: string;
  annotations?: Record<string, unknown> | undefined;
}

/** The findings of an MCP tool's call; `origin` null when Parley did not list the tool itself. */
export function mcpEffects(toolName: string, origin: McpOrigin | null): Finding[] {
  if (origin === null) {
    const server = /^mcp__([^_]+(?:_[^_]+)*)__/.exec(toolName)?.[1];
    const where = server ? `an MCP tool of ${server}` : `an MCP tool`;
    return [finding("unread", "medium", `${where}, whose annotations Parley does not have`)];
  }
  const hints = origin.annotations ?? {};
  const name = `${origin.tool} on ${origin.server}`;
  const open = hints.openWorldHint === true ? ", reaching outside systems" : "";
  const said = ["readOnlyHint", "destructiveHint", "openWorldHint"].some(
    (hint) => typeof hints[hint] === "boolean",
  );
  if (!said) return [finding("unread", "medium", `${name}: its server does not say what the tool changes`)];
  if (hints.readOnlyHint === true)
    return [finding("mcp", "low", `${name}: read-only, its server says${open}`)];
  // Once a server speaks, MCP's default for a tool that is not read-only is destructive.
  if (hints.destructiveHint !== false)
    return [finding("mcp", "high", `${name}: may destroy or overwrite data, its server says${open}`)];
  return [finding("mcp", "medium", `${name}: changes data but destroys none, its server says${open}`)];
}
