// Claude Code's permission requests as Parley cards, and a card's resolution as Claude Code's
// permission decision. Shared by the permission-prompt MCP tool, the command hook and the Agent
// SDK's canUseTool: AskUserQuestion → question, ExitPlanMode → plan, any other tool → approval
// with its whole input; answers, edits and reasons travel back in the decision.
import type { ExternalInteraction, ExternalKind } from "./external-agent";

/** What Claude Code accepts from a permission prompt (the SDK's PermissionResult). */
export type PermissionDecision =
  | { behavior: "allow"; updatedInput: Record<string, unknown>; updatedPermissions?: unknown[] }
  | { behavior: "deny"; message: string; interrupt?: boolean };

export interface Card {
  kind: ExternalKind;
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
 * `summary` is the host's own sentence for the request (the SDK's `title`), when it gives one.
 */
export function cardFor(
  toolName: string,
  input: Record<string, unknown>,
  plan?: string | null,
  summary?: string,
  suggestions?: unknown[],
): Card {
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
 * Claude Code's "always allow" suggestions as rules in its own syntax, which the card offers as a
 * Parley grant: the person's answer never comes back as settings for Claude Code to write.
 */
export function rulesOf(suggestions: unknown[] | undefined): string[] {
  const rules: string[] = [];
  for (const suggestion of suggestions ?? []) {
    const s = record(suggestion);
    if (s?.type !== "addRules" || s.behavior !== "allow" || !Array.isArray(s.rules)) continue;
    for (const rule of s.rules) {
      const r = record(rule);
      if (typeof r?.toolName !== "string") continue;
      const content = typeof r.ruleContent === "string" && r.ruleContent ? `(${r.ruleContent})` : "";
      rules.push(`${r.toolName}${content}`);
    }
  }
  return [...new Set(rules)].slice(0, 10);
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function unanswered(outcome: string): string {
  if (outcome === "timed_out")
    return "No one answered in Parley before the request's deadline; the tool was not run.";
  if (outcome === "withdrawn") return "The request was withdrawn; the tool was not run.";
  return "The request was cancelled in Parley; the tool was not run.";
}

/**
 * The decision for a resolved card. `suggestions` (the SDK's "always allow" rules) come back as
 * `updatedPermissions` when the person chose to remember the approval.
 */
export function decisionFor(
  input: Record<string, unknown>,
  state: ExternalInteraction,
  suggestions?: unknown[],
): PermissionDecision {
  const resolution = state.resolution;
  const response = record(resolution?.response);
  if (!resolution || !response) return { behavior: "deny", message: unanswered(resolution?.outcome ?? "") };
  if (state.kind === "question") {
    if (typeof response.chatReply === "string") {
      return {
        behavior: "deny",
        message: `The user did not pick answers and replied instead: "${response.chatReply}". Take their message as their answer.`,
      };
    }
    return { behavior: "allow", updatedInput: { ...input, answers: record(response.answers) ?? {} } };
  }
  if (state.kind === "plan") {
    if (response.choice === "keep_planning") {
      const feedback =
        typeof response.feedback === "string" && response.feedback ? `: ${response.feedback}` : ".";
      return { behavior: "deny", message: `The user wants you to keep planning${feedback}` };
    }
    return { behavior: "allow", updatedInput: input };
  }
  if (response.decision === "approve") {
    const edited = record(response.updatedInput);
    // A grant made from the card is Parley's to keep: Claude Code is not asked to save a rule.
    const remember = response.remember === true && !response.grant && suggestions && suggestions.length > 0;
    return {
      behavior: "allow",
      updatedInput: edited ?? input,
      ...(remember ? { updatedPermissions: suggestions } : {}),
    };
  }
  if (response.decision === "deny") {
    const reason = typeof response.reason === "string" && response.reason ? response.reason : null;
    return {
      behavior: "deny",
      message: reason ? `The user denied this in Parley: ${reason}` : "The user denied this in Parley.",
      ...(response.stop === true ? { interrupt: true } : {}),
    };
  }
  return { behavior: "deny", message: unanswered(resolution.outcome) };
}
