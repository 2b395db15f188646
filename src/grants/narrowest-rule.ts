// The rule a card offers first when a person chooses "Allow … for": the narrowest one that covers
// the call — the exact command, the file's folder, the URL's host — for them to widen if they mean to.
import { literalPattern } from "./command-pattern";
import { DOMAIN_TOOLS, PATH_RULE_TOOLS } from "./grant-rule";

export function narrowestRule(toolName: string, input: unknown): string {
  const fields = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const text = (name: string) => (typeof fields[name] === "string" ? (fields[name] as string) : null);
  if (toolName === "Bash") {
    const command = text("command")?.trim();
    // A line with a newline or ")" cannot be one rule's specifier: the tool as a whole is too wide
    // to offer first, so the person writes one. The call's own `*` and `\\` stay literal.
    if (command && !/[\n\r)]/.test(command)) return `Bash(${literalPattern(command)})`;
    return "Bash";
  }
  const pathTool = Object.entries(PATH_RULE_TOOLS).find(([, tools]) => tools.includes(toolName))?.[0];
  if (pathTool) {
    const rule = pathTool === "Read" ? "Read" : "Edit";
    const path = text("file_path") ?? text("notebook_path") ?? text("path");
    // A path with a glob character would widen as a pattern; the person writes that rule.
    if (path && !/[)*?[\]]/.test(path)) {
      const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
      if (folder.startsWith("/")) return `${rule}(/${folder}/**)`;
      return folder === "" ? `${rule}(${path})` : `${rule}(${folder}/**)`;
    }
    return rule;
  }
  if (DOMAIN_TOOLS.has(toolName)) {
    try {
      return `${toolName}(domain:${new URL(text("url") ?? "").hostname})`;
    } catch {
      return toolName;
    }
  }
  return toolName;
}

/** The rule "Allow … for" starts from, on the page and in chat: the agent's own first suggestion, else the narrowest. */
export function prefilledRule(toolName: string, input: unknown, suggested: readonly string[] = []): string {
  return suggested[0] ?? narrowestRule(toolName, input);
}
