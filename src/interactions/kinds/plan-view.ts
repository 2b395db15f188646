// The plan kind's view, zod-free: the plan read defensively and its three choices as the page's
// card and the terminal's prompt offer them, and in a chat message the plan, its three choices and
// feedback by text.
import { type ChatView, field, fixedChoices } from "./chat-view";

export const planChatView: ChatView = fixedChoices(
  [
    { code: "pa", label: "Approve, run edits", style: "primary", response: { choice: "accept_edits" } },
    { code: "pr", label: "Approve, review each", response: { choice: "review_each" } },
    { code: "pk", label: "Keep planning", response: { choice: "keep_planning" } },
    {
      code: "pf",
      label: "Keep planning, with feedback",
      needsText: { prompt: "What should change in the plan? Reply to this message.", label: "Feedback" },
      response: (feedback: string) => ({ choice: "keep_planning", feedback }),
    },
  ],
  (request) => {
    const plan = field(request, "plan");
    return typeof plan === "string" ? plan : null;
  },
);

/** The three choices, in the order cards offer them (the kind's schema reads them from here). */
export const PLAN_CHOICES = ["accept_edits", "review_each", "keep_planning"] as const;
export type PlanChoice = (typeof PLAN_CHOICES)[number];

/** One of a plan's choices as the page and the terminal offer it, with the key that picks it. */
export interface PlanOption {
  key: string;
  label: string;
  choice: PlanChoice;
}

/** The plan's choices in order: two approve it, the last keeps planning (with optional feedback). */
export const PLAN_OPTIONS: readonly PlanOption[] = [
  { key: "1", label: "Approve · accept edits", choice: "accept_edits" },
  { key: "2", label: "Approve · review each action", choice: "review_each" },
  { key: "3", label: "Keep planning", choice: "keep_planning" },
];

/** Reads an ExitPlanMode request defensively: the plan's markdown, or "" for unknown shapes. */
export function planOf(request: unknown): string {
  const plan = field(request, "plan");
  return typeof plan === "string" ? plan : "";
}

/** The response a choice sends; feedback (trimmed, dropped when empty) goes with keeping on planning only. */
export function planResponse(choice: PlanChoice, feedback = ""): { choice: PlanChoice; feedback?: string } {
  const text = feedback.trim();
  return choice === "keep_planning" && text ? { choice, feedback: text } : { choice };
}

/**
 * True when an answer changes the session beyond its card: approving with edits accepted switches
 * the session's permission mode. Reads any value; never throws.
 */
export function planReachesBeyondCard(response: unknown): boolean {
  return field(response, "choice") === "accept_edits";
}
