// The `plan` kind: in plan mode the model presents its plan (markdown) with ExitPlanMode, and the
// person chooses as in Claude Code — approve with edits accepted, approve and review each action,
// or keep planning with feedback. An approval switches the session's permission mode.
import * as z from "zod";
import { lazySchema } from "../../protocol/lazy-schema";
import { MAX_TEXT_FIELD_CHARS } from "../../protocol/limits";
import type { PermissionMode } from "../../protocol/session/session";
import { describeZodError } from "../../protocol/wire/errors";
import { defineInteraction } from "../define-interaction";
import { describeDuration } from "../describe-duration";
import { PLAN_CHOICES, type PlanChoice, planReachesBeyondCard } from "./plan-view";

/** Longest plan the model may present, in characters. */
export const MAX_PLAN_CHARS = 40_000;

/** The ExitPlanMode tool input: the plan, as markdown. */
export const PlanRequest = lazySchema(() =>
  z.object({
    plan: z
      .string()
      .trim()
      .min(1, "plan must not be empty")
      .max(MAX_PLAN_CHARS, `plan must be at most ${MAX_PLAN_CHARS} characters`)
      .describe("The plan to run, as concise markdown: the steps, the files or tools involved, the risks."),
  }),
);
export type PlanRequest = z.infer<typeof PlanRequest>;

export { PLAN_CHOICES, type PlanChoice };

/** The mode each approving choice switches the session to. */
const MODE_AFTER: Record<Exclude<PlanChoice, "keep_planning">, PermissionMode> = {
  accept_edits: "acceptEdits",
  review_each: "default",
};

/** What a device sends; feedback belongs to "keep planning" only. */
export const RawPlanDecision = lazySchema(() =>
  z.discriminatedUnion(
    "choice",
    [
      z.strictObject({ choice: z.literal("accept_edits") }),
      z.strictObject({ choice: z.literal("review_each") }),
      z.strictObject({
        choice: z.literal("keep_planning"),
        feedback: z
          .string()
          .trim()
          .max(MAX_TEXT_FIELD_CHARS, `feedback must be at most ${MAX_TEXT_FIELD_CHARS} characters`)
          .optional(),
      }),
    ],
    { error: `choice must be one of ${PLAN_CHOICES.map((c) => `"${c}"`).join(", ")}` },
  ),
);

/** The stored decision. */
export const PlanResponse = lazySchema(() =>
  z.discriminatedUnion("choice", [
    z.object({ choice: z.enum(["accept_edits", "review_each"]) }),
    z.object({ choice: z.literal("keep_planning"), feedback: z.string().nullable() }),
  ]),
);
export type PlanResponse = z.infer<typeof PlanResponse>;

const RECEIPTS: Record<PlanChoice, string> = {
  accept_edits: "Plan approved · edits run without asking",
  review_each: "Plan approved · each action is reviewed",
  keep_planning: "Keep planning",
};

const STILL_PLANNING = 'The session stays in "plan" mode: only read-only tools run.';

/** A plan waiting for the person's go-ahead. */
export const planInteraction = defineInteraction<PlanRequest, PlanResponse>({
  kind: "plan",
  toolName: "ExitPlanMode",
  description: [
    "Use this tool in plan mode once your plan is ready, to present it to the user for approval.",
    "Pass the whole plan as markdown. The user approves it (then you may make the changes) or asks you",
    "to keep planning with feedback. Do not use it to ask questions: use AskUserQuestion for those.",
  ].join(" "),
  request: PlanRequest,
  onlyInMode: "plan",
  modeNote: (mode) =>
    mode === "plan"
      ? "Permission mode: plan. Only read-only tools run. Research, then present a concrete plan with the ExitPlanMode tool and wait for the user's decision before changing anything."
      : null,
  parseResponse(_request, raw) {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      return {
        ok: false,
        message: `Expected { choice: ${PLAN_CHOICES.map((c) => `"${c}"`).join(" | ")}, feedback? }`,
      };
    }
    const parsed = RawPlanDecision.safeParse(raw);
    if (!parsed.success) return { ok: false, message: describeZodError(parsed.error) };
    const decision = parsed.data;
    if (decision.choice !== "keep_planning") return { ok: true, response: { choice: decision.choice } };
    return { ok: true, response: { choice: "keep_planning", feedback: decision.feedback || null } };
  },
  outcome: (_request, response) => (response.choice === "keep_planning" ? "denied" : "approved"),
  receipt(_outcome, response) {
    // A choice this version does not know (a stored response from another) keeps the plain outcome.
    const words = response && RECEIPTS[response.choice];
    if (!words) return null;
    const feedback =
      response.choice === "keep_planning" && response.feedback ? `: “${response.feedback}”` : "";
    return words + feedback;
  },
  toResult(_request, response) {
    if (response.choice === "keep_planning") {
      const feedback = response.feedback === null ? "" : ` Their feedback: ${response.feedback}`;
      return {
        content: `The user wants you to keep planning before anything runs.${feedback} ${STILL_PLANNING} Revise the plan and present it again with ExitPlanMode.`,
        isError: true,
      };
    }
    const mode = MODE_AFTER[response.choice];
    const how =
      mode === "acceptEdits"
        ? 'The permission mode is now "acceptEdits": edits run without asking; other actions still ask.'
        : 'The permission mode is now "default": the user reviews each action that is not read-only.';
    return {
      content: `User has approved your plan. ${how} You can now start carrying it out.`,
      isError: false,
    };
  },
  beyondCard: planReachesBeyondCard,
  setsMode: (_request, response) =>
    response.choice === "keep_planning" ? null : MODE_AFTER[response.choice],
  onTimeout: (_request, { timeoutMs }) => ({
    content: `The user did not decide on the plan within ${describeDuration(timeoutMs)}. ${STILL_PLANNING}`,
    isError: true,
  }),
  onCancel: () => ({
    content: `The user cancelled the turn before deciding on the plan. ${STILL_PLANNING}`,
    isError: true,
  }),
});
