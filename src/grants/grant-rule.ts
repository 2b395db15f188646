// A grant's rule in Claude Code's permission syntax (`Tool` or `Tool(specifier)`), parsed into a
// tagged union once, at the edge, so a malformed rule is refused with the problem named.
import { endsWithPrefixStar, patternText, readPattern } from "./command-pattern";

/** Longest rule accepted (a long exact command is the usual long one). */
export const MAX_RULE_CHARS = 2_000;

/** What a Bash rule with a wildcard trusts, in words (the hazardous options are never covered). */
const PROGRAM_OPTIONS =
  "the program's options, except those that run other code or write elsewhere (as npm --script-shell, git -c, find -exec)";

/** Tools whose specifier is a shell command. */
export const COMMAND_TOOLS: ReadonlySet<string> = new Set(["Bash"]);
/** Tools whose specifier is a path pattern, and the tools each rule covers. */
export const PATH_RULE_TOOLS: Readonly<Record<string, readonly string[]>> = {
  Read: ["Read", "Grep", "Glob", "LS", "NotebookRead"],
  Edit: ["Edit", "MultiEdit", "Write", "NotebookEdit"],
  Write: ["Write"],
};
/** Tools whose specifier is `domain:<host>`: Claude Code's and Parley's own fetch. */
export const DOMAIN_TOOLS: ReadonlySet<string> = new Set(["WebFetch", "fetch_url"]);

export type GrantRule =
  /** `Bash`, `Bash(*)`, `mcp__server__tool`, `current_time`: every call of the tool. */
  | { type: "tool"; tool: string }
  /** `mcp__server` or `mcp__server__*`: every tool of one MCP server. */
  | { type: "server"; server: string }
  /** `Bash(npm run build)`, `Bash(npm run test:*)`, `Bash(git * main)`; `\\*` is a literal star. */
  | { type: "command"; tool: string; pattern: string }
  /** `Edit(src/**)`, `Read(//etc/hosts)`, `Read(~/notes/*.md)`. */
  | { type: "path"; tool: string; pattern: string }
  /** `WebFetch(domain:example.com)`, `WebFetch(domain:*.example.com)`. */
  | { type: "domain"; tool: string; domain: string };

export type ParsedRule = { ok: true; rule: GrantRule } | { ok: false; message: string };

const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const MCP_SERVER_WILDCARD = /^mcp__[A-Za-z0-9_-]+__\*$/;
const HOST = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Parses `text`; the failure names what is wrong in words a person can act on. */
export function parseRule(text: string): ParsedRule {
  if (text.trim() === "") return fail("rule must not be empty");
  if (text.length > MAX_RULE_CHARS) return fail(`rule must be at most ${MAX_RULE_CHARS} characters`);
  if (/[\n\r\0]/.test(text)) return fail("rule must be one line");
  const trimmed = text.trim();
  const open = trimmed.indexOf("(");
  const tool = open === -1 ? trimmed : trimmed.slice(0, open);
  if (!TOOL_NAME.test(tool) && !MCP_SERVER_WILDCARD.test(tool)) {
    return fail(
      `rule must start with a tool name (letters, digits, _ and -), as in Bash(npm run build); got "${tool}"`,
    );
  }
  if (open === -1) return { ok: true, rule: bareRule(tool) };
  if (!trimmed.endsWith(")")) return fail(`rule ${trimmed}: the specifier must end with ")"`);
  const specifier = trimmed.slice(open + 1, -1).trim();
  if (specifier === "")
    return fail(`rule ${trimmed}: the specifier between ( and ) is empty; write ${tool} for every call`);
  if (specifier === "*") return { ok: true, rule: bareRule(tool) };
  if (COMMAND_TOOLS.has(tool)) return commandRule(tool, specifier);
  if (PATH_RULE_TOOLS[tool]) return pathRule(tool, specifier);
  if (DOMAIN_TOOLS.has(tool)) return domainRule(tool, specifier);
  return fail(
    `rule ${trimmed}: ${tool} takes no specifier (only Bash, Read, Edit, Write, WebFetch and fetch_url do); write ${tool} for every call`,
  );
}

/** The rule written back in Claude Code's syntax (a parsed rule round-trips to the same text). */
export function formatRule(rule: GrantRule): string {
  switch (rule.type) {
    case "tool":
      return rule.tool;
    case "server":
      return `mcp__${rule.server}__*`;
    case "command":
    case "path":
      return `${rule.tool}(${rule.pattern})`;
    case "domain":
      return `${rule.tool}(domain:${rule.domain})`;
  }
}

/** A one-line preview of what a rule matches, for the page, the terminal and the API. */
export function describeRule(rule: GrantRule): string {
  switch (rule.type) {
    case "tool":
      return `every ${rule.tool} call`;
    case "server":
      return `every tool of the MCP server ${rule.server}`;
    case "command": {
      const read = readPattern(rule.pattern);
      if (!read.wildcard) return `exactly the ${rule.tool} command "${patternText(rule.pattern)}"`;
      // A prefix rule trusts the program's options, except those that run other code or write
      // elsewhere (src/grants/option-hazards.ts), so the words say both.
      const trust = `each a plain command (no expansion, redirection or subshell) and trusting ${PROGRAM_OPTIONS}`;
      if (endsWithPrefixStar(rule.pattern)) {
        const prefix = rule.pattern.slice(0, -2);
        return `${rule.tool} commands that are "${prefix}" or start with "${prefix} ", ${trust}`;
      }
      return `${rule.tool} commands like "${rule.pattern}" (* is any text, \\* a star), ${trust}`;
    }
    case "path": {
      const tools = (PATH_RULE_TOOLS[rule.tool] ?? [rule.tool]).join(", ");
      return `${tools} on paths matching ${rule.pattern}`;
    }
    case "domain":
      return rule.domain.startsWith("*.")
        ? `${rule.tool} of http(s) URLs on any subdomain of ${rule.domain.slice(2)}`
        : `${rule.tool} of http(s) URLs on ${rule.domain}`;
  }
}

function bareRule(tool: string): GrantRule {
  const server = /^mcp__([A-Za-z0-9_-]+?)(?:__\*)?$/.exec(tool);
  if (server?.[1] && !server[1].includes("__")) return { type: "server", server: server[1] };
  return { type: "tool", tool };
}

function commandRule(tool: string, pattern: string): ParsedRule {
  const colon = pattern.indexOf(":*");
  if (colon !== -1 && colon !== pattern.length - 2) {
    return fail(`rule ${tool}(${pattern}): ":*" may only end the pattern, as in ${tool}(npm run test:*)`);
  }
  if (colon !== -1 && pattern.slice(0, -2).trim() === "") {
    return fail(`rule ${tool}(${pattern}): ":*" needs a command before it; write ${tool} for every call`);
  }
  return { ok: true, rule: { type: "command", tool, pattern } };
}

function pathRule(tool: string, pattern: string): ParsedRule {
  if (pattern.split("/").includes("..")) {
    return fail(`rule ${tool}(${pattern}): a path pattern must not contain ".." segments`);
  }
  if (pattern.startsWith("~") && !pattern.startsWith("~/")) {
    return fail(
      `rule ${tool}(${pattern}): "~" must be followed by "/" (another user's home is not supported)`,
    );
  }
  return { ok: true, rule: { type: "path", tool, pattern } };
}

function domainRule(tool: string, specifier: string): ParsedRule {
  if (!specifier.startsWith("domain:")) {
    return fail(
      `rule ${tool}(${specifier}): ${tool} rules take domain:<host>, as in ${tool}(domain:example.com)`,
    );
  }
  const domain = specifier.slice("domain:".length).trim().toLowerCase();
  if (!HOST.test(domain)) {
    return fail(
      `rule ${tool}(${specifier}): "${domain}" is not a host name (example.com, or *.example.com for its subdomains)`,
    );
  }
  return { ok: true, rule: { type: "domain", tool, domain } };
}

function fail(message: string): ParsedRule {
  return { ok: false, message };
}
