// The buttons a chat message of a card offers, and the session command each one sends. Buttons carry
// only a short choice code; what it means is read again from the card the inbox holds.
import type { SessionCommand } from "../protocol/commands";
import type { InboxCard } from "../protocol/inbox";

export interface ChatChoice {
  /** Short and stable: it travels in the button's data (`<ref>.<code>`). */
  code: string;
  label: string;
  style?: "primary" | "danger";
}

/** Longest option label put on a button; longer ones are shortened with "…". */
const MAX_LABEL = 40;

type QuestionShape = {
  questions: { question: string; multiSelect?: boolean; options: { label: string }[] }[];
};

function singleQuestion(request: unknown): QuestionShape["questions"][number] | null {
  const questions = (request as Partial<QuestionShape> | null)?.questions;
  if (!Array.isArray(questions) || questions.length !== 1) return null;
  const only = questions[0];
  return only && !only.multiSelect && Array.isArray(only.options) ? only : null;
}

/** The card's choices as buttons; empty when it must be answered in Parley (forms, several questions). */
export function choicesOf(
  card: Pick<InboxCard, "kind" | "request" | "deadlinePolicy" | "expiresAt">,
): ChatChoice[] {
  const choices = kindChoices(card);
  const policy = card.deadlinePolicy;
  // As on the page: offered while the deadline may still move.
  if (choices.length > 0 && policy && card.expiresAt < policy.maxExpiresAt) {
    choices.push({ code: "x", label: "More time" });
  }
  return choices;
}

function kindChoices(card: Pick<InboxCard, "kind" | "request">): ChatChoice[] {
  switch (card.kind) {
    case "approval":
      return [
        { code: "a", label: "Approve", style: "primary" },
        { code: "d", label: "Deny", style: "danger" },
      ];
    case "question": {
      const question = singleQuestion(card.request);
      if (!question) return [];
      return question.options.map((option, index) => ({
        code: `o${index}`,
        label: option.label.length > MAX_LABEL ? `${option.label.slice(0, MAX_LABEL - 1)}…` : option.label,
      }));
    }
    case "plan":
      return [
        { code: "pa", label: "Approve, run edits", style: "primary" },
        { code: "pr", label: "Approve, review each" },
        { code: "pk", label: "Keep planning" },
      ];
    case "url":
      return [
        { code: "uf", label: "I've finished", style: "primary" },
        { code: "ud", label: "Decline", style: "danger" },
      ];
    default:
      return [];
  }
}

/** The command a choice sends to the card's session; null for a code this card does not offer. */
export function commandFor(card: InboxCard, code: string): SessionCommand | null {
  if (!choicesOf(card).some((choice) => choice.code === code)) return null;
  const interactionId = card.interactionId;
  if (code === "x") return { type: "extend_deadline", interactionId } as SessionCommand;
  const respond = (response: unknown) => ({ type: "respond", interactionId, response }) as SessionCommand;
  switch (code) {
    case "a":
      return respond({ decision: "approve" });
    case "d":
      return respond({ decision: "deny" });
    case "pa":
      return respond({ choice: "accept_edits" });
    case "pr":
      return respond({ choice: "review_each" });
    case "pk":
      return respond({ choice: "keep_planning" });
    case "uf":
      return respond({ action: "accept" });
    case "ud":
      return respond({ action: "decline" });
  }
  const question = singleQuestion(card.request);
  const option = question?.options[Number(code.slice(1))];
  if (!question || !option) return null;
  return respond({ answers: { [question.question]: option.label } });
}
