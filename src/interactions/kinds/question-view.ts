// The question kind in a chat message: each question with its options (and their descriptions);
// one single-choice question gets its options as buttons, anything else is answered in Parley.
import { type ChatView, field, shortLabel } from "./chat-view";

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
