// What an MCP tool's call does, by its server's own annotations from its tools list (never from
// the call): read-only is low where the deployment trusts the server, destructive high, anything
// else medium; an open-world tool says so.

import { type Finding, finding } from "./assessment";

/** The MCP origin Parley keeps for a tool it lists: the server, the tool, and its annotations. */
export interface McpOrigin {
  server: string;
  tool: string;
  annotations?: Record<string, unknown> | undefined;
  /** Whether the deployment takes the server's annotations at their word. */
  trusted?: boolean | undefined;
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
  // A server's word that a tool only reads lowers the level only where the deployment trusts it.
  if (hints.readOnlyHint === true && origin.trusted === true)
    return [finding("mcp", "low", `${name}: read-only, its server says${open}`)];
  if (hints.readOnlyHint === true)
    return [
      finding(
        "mcp",
        "medium",
        `${name}: read-only, its server says, which this deployment does not take at its word${open}`,
      ),
    ];
  // Once a server speaks, MCP's default for a tool that is not read-only is destructive.
  if (hints.destructiveHint !== false)
    return [finding("mcp", "high", `${name}: may destroy or overwrite data, its server says${open}`)];
  return [finding("mcp", "medium", `${name}: changes data but destroys none, its server says${open}`)];
}
