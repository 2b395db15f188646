// A resolved card as Claude Code's permission decision, shared by every bridge: answers, edits and
// reasons travel back in it. An approval is always a plain allow: "always allow" is a Parley grant
// the person made on the card, so nothing asks Claude Code to save a rule in its settings files.
import type { ExternalInteraction } from "../protocol/external/external";
import { record } from "./json-record";

/** What Claude Code accepts from a permission prompt (the SDK's PermissionResult, without updatedPermissions). */
export type PermissionDecision =
  | { behavior: "allow"; updatedInput: Record<string, unknown> }
  | { behavior: "deny"; message: string; interrupt?: boolean };

function unanswered(outcome: string): string {
  if (outcome === "timed_out")
    return "No one answered in Parley before the request's deadline; the tool was not run.";
  if (outcome === "withdrawn") return "The request was withdrawn; the tool was not run.";
  return "The request was cancelled in Parley; the tool was not run.";
}

/** The decision for a resolved card whose request was `input`. */
export function decisionFor(input: Record<string, unknown>, state: ExternalInteraction): PermissionDecision {
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
    return { behavior: "allow", updatedInput: record(response.updatedInput) ?? input };
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
