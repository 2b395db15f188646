// Whether a grant's rule covers one tool call, for an allow or a deny. An allow covers only what it
// fully understands; a deny (and an approval policy) also covers what it cannot tell.
import { invocationsOf } from "./command-invocations";
import { commandDenied, commandsAllowed } from "./command-match";
import { type GrantRule, PATH_RULE_TOOLS } from "./grant-rule";
import { pathMatches } from "./path-match";
import { readShell } from "./shell-reading";
import { knowsInput, pathsOf } from "./tool-inputs";

/** A tool call as the permission path sees it: the tool's name and its input, as sent. */
export interface ToolCall {
  toolName: string;
  input: unknown;
  /**
   * The agent process's working folder, as its bridge reported it (never read from the tool's
   * input, which the agent writes); relative path rules resolve against it. Absent: they cannot allow.
   */
  cwd?: string | null;
}

export type GrantEffect = "allow" | "deny";

export function ruleMatches(rule: GrantRule, call: ToolCall, effect: GrantEffect): boolean {
  // An allow never covers a call whose input says more than the rule can read.
  if (effect === "allow" && !allowable(rule, call)) return false;
  switch (rule.type) {
    case "tool":
      return call.toolName === rule.tool;
    case "server":
      return call.toolName.startsWith(`mcp__${rule.server}__`);
    case "command": {
      if (call.toolName !== rule.tool) return false;
      const command = field(call.input, "command");
      if (command === null) return false;
      const reading = readShell(command);
      if (effect === "deny") return commandDenied(rule.pattern, command, invocationsOf(reading));
      const allowed = commandsAllowed(rule.pattern, command, reading);
      return allowed?.every(Boolean) ?? false;
    }
    case "path": {
      if (!(PATH_RULE_TOOLS[rule.tool] ?? []).includes(call.toolName)) return false;
      const paths = pathsOf(call.toolName, call.input, call.cwd ?? null);
      if (paths === null) return effect === "deny";
      if (paths.length === 0) return false;
      return effect === "allow"
        ? paths.every((path) => pathAllowed(rule.pattern, path, call.cwd ?? null))
        : paths.some((path) => pathDenied(rule.pattern, path, call.cwd ?? null));
    }
    case "domain": {
      if (call.toolName !== rule.tool) return false;
      const url = field(call.input, "url");
      return url !== null && domainMatches(rule.domain, url);
    }
  }
}

/**
 * For a Bash command rule: which of the line's simple commands the rule allows, in order; null when
 * no allow can cover the line (or the rule is not a command rule of the call's tool).
 */
export function partsAllowed(rule: GrantRule, call: ToolCall): boolean[] | null {
  if (rule.type !== "command" || call.toolName !== rule.tool || !allowable(rule, call)) return null;
  const command = field(call.input, "command");
  return command === null ? null : commandsAllowed(rule.pattern, command, readShell(command));
}

/** Whether an allow may cover the call at all: no sandbox escape, and (for a rule with a specifier) no unknown field. */
function allowable(rule: GrantRule, call: ToolCall): boolean {
  const input = typeof call.input === "object" && call.input !== null ? call.input : {};
  if (call.toolName === "Bash" && (input as Record<string, unknown>).dangerouslyDisableSandbox === true)
    return false;
  if (rule.type === "tool" || rule.type === "server") return true;
  return knowsInput(call.toolName, call.input);
}

/** A relative pattern needs the working folder the bridge reported; without one it allows nothing. */
function pathAllowed(pattern: string, path: string, cwd: string | null): boolean {
  if (isRelative(pattern) && !cwd) return false;
  if (!path.startsWith("/") && !cwd) return false;
  return pathMatches(pattern, path, cwd);
}

/**
 * A deny without the working folder cannot tell where a relative pattern points: it covers the
 * path when the pattern matches under any folder the path could be relative to.
 */
function pathDenied(pattern: string, path: string, cwd: string | null): boolean {
  if (cwd || !isRelative(pattern)) return pathMatches(pattern, path, cwd);
  if (pathMatches(pattern, path, null)) return true;
  if (!path.startsWith("/")) return false;
  const segments = path.split("/");
  return segments.some(
    (_, at) => at > 0 && pathMatches(pattern, path, segments.slice(0, at).join("/") || "/"),
  );
}

function isRelative(pattern: string): boolean {
  return !pattern.startsWith("/") && !pattern.startsWith("~/");
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
