// The permission policy as a pure function: what happens to a tool call before it runs (docs/architecture.md#interactions-and-permission-modes).
// Interactive tools (AskUserQuestion) never reach it: they always ask.
import type { PermissionMode } from "../protocol/session/session";
import type { ToolRisk } from "../tools/define-tool";

export type PermissionDecision =
  | { behavior: "allow" }
  | { behavior: "ask" }
  | { behavior: "deny"; message: string };

export interface PolicyTool {
  name: string;
  risk: ToolRisk;
}

/**
 * Decides a tool call. `rules` are the tools a person chose to "always allow" in this session.
 * Order matters: bypass beats everything, plan mode beats session rules (planning must not act).
 */
export function decide(
  tool: PolicyTool,
  mode: PermissionMode,
  rules: ReadonlySet<string>,
): PermissionDecision {
  if (mode === "bypassPermissions") return { behavior: "allow" };
  if (tool.risk === "read") return { behavior: "allow" };
  if (mode === "plan") {
    return {
      behavior: "deny",
      message:
        `Permission mode is "plan": only read-only tools run while planning, so ${tool.name} ` +
        `(${tool.risk}) was not run. Describe what you would do instead, and the user can switch modes.`,
    };
  }
  if (rules.has(tool.name)) return { behavior: "allow" };
  if (mode === "acceptEdits" && tool.risk === "edit") return { behavior: "allow" };
  return { behavior: "ask" };
}
