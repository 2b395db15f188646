// Whether a grant's rule covers one tool call, for an allow or a deny: a deny also looks inside a
// compound command, an allow never covers one.
import { commandAllowed, commandDenied } from "./command-match";
import { type GrantRule, PATH_RULE_TOOLS } from "./grant-rule";
import { pathMatches } from "./path-match";

/** A tool call as the permission path sees it: the tool's name and its input, as sent. */
export interface ToolCall {
  toolName: string;
  input: unknown;
  /** The agent's working folder as its bridge reports it; never read from the input. */
  cwd?: string | null;
}

export type GrantEffect = "allow" | "deny";

export function ruleMatches(rule: GrantRule, call: ToolCall, effect: GrantEffect): boolean {
  switch (rule.type) {
    case "tool":
      return call.toolName === rule.tool;
    case "server":
      return call.toolName.startsWith(`mcp__${rule.server}__`);
    case "command": {
      if (call.toolName !== rule.tool) return false;
      const command = field(call.input, "command");
      if (command === null) return false;
      return effect === "allow"
        ? commandAllowed(rule.pattern, command)
        : commandDenied(rule.pattern, command);
    }
    case "path": {
      if (!(PATH_RULE_TOOLS[rule.tool] ?? []).includes(call.toolName)) return false;
      const path =
        field(call.input, "file_path") ?? field(call.input, "notebook_path") ?? field(call.input, "path");
      if (path === null) return false;
      return pathMatches(rule.pattern, path, call.cwd ?? null);
    }
    case "domain": {
      if (call.toolName !== rule.tool) return false;
      const url = field(call.input, "url");
      return url !== null && domainMatches(rule.domain, url);
    }
  }
}

function domainMatches(domain: string, url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return false;
  const host = parsed.hostname.toLowerCase().replace(/\.$/, "");
  if (domain.startsWith("*.")) return host.endsWith(domain.slice(1));
  return host === domain;
}

function field(input: unknown, name: string): string | null {
  if (typeof input !== "object" || input === null) return null;
  const value = (input as Record<string, unknown>)[name];
  return typeof value === "string" ? value : null;
}
