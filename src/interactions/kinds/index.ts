// The interaction kinds every session has; a new kind is one file here plus one line below.
import type { AnyInteractionKind } from "../registry";
import { approvalInteraction } from "./approval";
import { formInteraction } from "./form";
import { planInteraction } from "./plan";
import { questionInteraction } from "./question";
import { urlInteraction } from "./url";

export { ApprovalRequest, ApprovalResponse, approvalInteraction } from "./approval";
export { formInteraction } from "./form";
export { BUILTIN_KIND_NAMES } from "./names";
export { PLAN_CHOICES, type PlanChoice, PlanRequest, PlanResponse, planInteraction } from "./plan";
export { Question, QuestionOption, QuestionRequest, questionInteraction } from "./question";
export {
  ANSWER_JOINER,
  parseQuestionAnswers,
  QuestionResponse,
  QuestionSelection,
  RawQuestionAnswers,
  splitJoinedLabels,
} from "./question-answers";
export { urlInteraction } from "./url";

/** The built-in kinds, in the order their tools are offered to the model. */
export const BUILTIN_INTERACTIONS: readonly AnyInteractionKind[] = [
  questionInteraction,
  formInteraction,
  approvalInteraction,
  planInteraction,
  urlInteraction,
];
