// The question kind's view, zod-free: in a chat message each question with its options (and their
// descriptions), one single-choice question's options as buttons, anything else answered in Parley;
// for the page's card and the terminal's prompt the questions read defensively, and the answers.
import type { AnswerValue } from "../../protocol/commands";
import { type ChatView, field, shortLabel } from "./chat-view";
import type { Question as KindQuestion } from "./question";

type Question = {
  question: string;
  multiSelect?: boolean;
  options?: { label: string; description?: string }[];
};

function questionsOf(request: unknown): Question[] {
  const questions = field(request, "questions");
  return Array.isArray(questions) ? (questions as Question[]) : [];
}

function single(request: unknown): Question | null {
  const questions = questionsOf(request);
  const only = questions[0];
  return questions.length === 1 && only && !only.multiSelect && Array.isArray(only.options) ? only : null;
}

export const questionChatView: ChatView = {
  detail: (request) =>
    questionsOf(request)
      .map((q) =>
        [
          q.question,
          ...(q.options ?? []).map((o) => `• ${o.label}${o.description ? ` — ${o.description}` : ""}`),
        ].join("\n"),
      )
      .join("\n\n"),
  choices: (request) =>
    (single(request)?.options ?? []).map((option, index) => ({
      code: `o${index}`,
      label: shortLabel(option.label),
    })),
  response(request, code) {
    const question = single(request);
    const option = /^o\d{1,3}$/.test(code) ? question?.options?.[Number(code.slice(1))] : undefined;
    return question && option ? { answers: { [question.question]: option.label } } : null;
  },
};

/** A question as the page and the terminal ask it. */
export type AskedQuestion = KindQuestion;

/** Reads an AskUserQuestion request defensively for the page and the terminal; unknown shapes give none. */
export function readQuestions(request: unknown): AskedQuestion[] {
  const list = field(request, "questions");
  if (!Array.isArray(list)) return [];
  return list.map((raw: Record<string, unknown>) => ({
    question: String(raw?.question ?? ""),
    header: String(raw?.header ?? ""),
    multiSelect: raw?.multiSelect === true,
    options: Array.isArray(raw?.options)
      ? raw.options.map((o: Record<string, unknown>) => ({
          label: String(o?.label ?? ""),
          description: String(o?.description ?? ""),
          ...(typeof o?.preview === "string" ? { preview: o.preview } : {}),
        }))
      : [],
  }));
}

/** Finds the answers map in a resolution response (`{answers}` or the map itself). */
function answersOf(response: unknown): Record<string, AnswerValue> {
  if (!response || typeof response !== "object") return {};
  const inner = (response as { answers?: unknown }).answers;
  return (inner && typeof inner === "object" ? inner : response) as Record<string, AnswerValue>;
}

/** `header: answer` lines for the compact summary, matching keys by question text or index. */
export function answerSummary(
  questions: AskedQuestion[],
  response: unknown,
): { header: string; answer: string }[] {
  const answers = answersOf(response);
  return questions.map((q, i) => {
    const value = answers[q.question] ?? answers[String(i)];
    const answer = Array.isArray(value) ? value.join(", ") : typeof value === "string" ? value : "—";
    return { header: q.header || q.question, answer };
  });
}

/** True when every question has a usable answer (Other needs text; multi-select needs one pick). */
export function allAnswered(
  questions: AskedQuestion[],
  answers: Record<string, AnswerValue | undefined>,
): boolean {
  return questions.every((q) => {
    const value = answers[q.question];
    if (Array.isArray(value)) return value.length > 0 && value.every((v) => v.trim() !== "");
    return typeof value === "string" && value.trim() !== "";
  });
}
