// Claude Code's permission requests as Parley cards, shared by every bridge (`parley mcp`,
// `parley hook`, `parley/agent-sdk`, the Worker's `/mcp`): AskUserQuestion → question, ExitPlanMode
// → plan, any other tool → approval with its whole input and Claude Code's "always allow" rules.
import { record } from "./json-record";

/** The card for one permission request. */
export interface ClaudeCard {
  kind: "question" | "plan" | "approval";
  request: Record<string, unknown>;
}

/** Said on a plan card when Claude Code did not pass its plan and no plan file could be read. */
export const PLAN_NOT_FOUND =
  "Claude Code asks to leave plan mode, but its plan could not be found: it was neither in the " +
  "request, nor in the session transcript, nor in the plans folder of Claude Code's config " +
  "directory. Ask for the plan in the terminal before approving.";

type Risk = "read" | "edit" | "network" | "execute";

const RISKS: Record<string, Risk> = {
  Read: "read",
  Glob: "read",
  Grep: "read",
  LS: "read",
  Write: "edit",
  Edit: "edit",
  MultiEdit: "edit",
  NotebookEdit: "edit",
  WebFetch: "network",
  WebSearch: "network",
};

/** Most rules a card offers (the approval kind's own limit). */
const MAX_SUGGESTED_RULES = 10;

function firstLine(text: unknown, max = 300): string | undefined {
  if (typeof text !== "string" || !text.trim()) return undefined;
  const line = text.trim().split("\n")[0]!;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A one-line summary of the call, when the input has an obvious one. */
function describe(toolName: string, input: Record<string, unknown>): string | undefined {
  if (toolName === "Bash") return firstLine(input.description) ?? firstLine(input.command);
  return firstLine(input.description) ?? firstLine(input.file_path) ?? firstLine(input.url);
}

/**
 * The card for one permission request. `plan` is the plan text found for ExitPlanMode, if any;
 * `summary` is the host's own sentence for the request (the SDK's `title`), when it gives one;
 * `suggestions` are Claude Code's "always allow" updates (`permission_suggestions`).
 */
export function cardFor(
  toolName: string,
  input: Record<string, unknown>,
  plan?: string | null,
  summary?: string,
  suggestions?: unknown[],
): ClaudeCard {
  if (toolName === "AskUserQuestion" && Array.isArray(input.questions)) {
    return { kind: "question", request: { questions: input.questions } };
  }
  if (toolName === "ExitPlanMode") {
    const given = typeof input.plan === "string" && input.plan.trim() ? input.plan : null;
    return { kind: "plan", request: { plan: given ?? (plan?.trim() ? plan : PLAN_NOT_FOUND) } };
  }
  const description = firstLine(summary) ?? describe(toolName, input);
  const suggestedRules = rulesOf(suggestions);
  return {
    kind: "approval",
    request: {
      toolName: toolName.slice(0, 128),
      input,
      risk: RISKS[toolName] ?? "execute",
      ...(description ? { description } : {}),
      ...(suggestedRules.length > 0 ? { suggestedRules } : {}),
    },
  };
}

/**
 * Claude Code's "always allow" suggestions as rules in its own syntax (`Bash(npm run test:*)`),
 * which the card offers as a Parley grant. Deny rules, mode changes and directories are not
 * offered: a card's grant only ever allows what the person read.
 */
export function rulesOf(suggestions: unknown[] | undefined): string[] {
  const rules: string[] = [];
  for (const suggestion of suggestions ?? []) {
    const s = record(suggestion);
    if (s?.type !== "addRules" || s.behavior !== "allow" || !Array.isArray(s.rules)) continue;
    for (const rule of s.rules) {
      const r = record(rule);
      if (typeof r?.toolName !== "string" || !r.toolName) continue;
      const content = typeof r.ruleContent === "string" && r.ruleContent ? `(${r.ruleContent})` : "";
      rules.push(`${r.toolName}${content}`);
    }
  }
  return [...new Set(rules)].slice(0, MAX_SUGGESTED_RULES);
}
