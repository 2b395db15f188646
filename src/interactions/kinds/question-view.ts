// The question kind in a chat message: one question at a time, with its options (and their
// descriptions) as buttons — single-select answers at a press, multi-select toggles then Done —
// and Other as text. Several questions are answered in turn and sent once, as one answer.
import { type ChatChoice, type ChatPress, type ChatView, field, shortLabel } from "./chat-view";

type Question = {
  question: string;
  multiSelect?: boolean;
  options?: { label: string; description?: string }[];
};

/** What the presses on one message gathered: the questions answered so far and the current toggles. */
type Progress = { step: number; answers: Record<string, string | string[]>; toggled: number[] };

const OTHER = "ot";
const DONE = "dn";
const OTHER_TEXT = { prompt: "Your answer? Reply to this message with it.", label: "Answer" };

function questionsOf(request: unknown): Question[] {
  const questions = field(request, "questions");
  return Array.isArray(questions) ? (questions as Question[]) : [];
}

function progressOf(progress: unknown): Progress {
  const kept = progress as Partial<Progress> | null;
  return {
    step: typeof kept?.step === "number" ? kept.step : 0,
    answers: kept?.answers ?? {},
    toggled: Array.isArray(kept?.toggled) ? kept.toggled : [],
  };
}

/** The question the message asks now; null when the questions cannot be answered in a chat. */
function current(request: unknown, progress: Progress): Question | null {
  const questions = questionsOf(request);
  if (!questions.every((q) => Array.isArray(q.options) && q.options.length > 0)) return null;
  return questions[progress.step] ?? null;
}

/** The answer to the current question is in: the next question, or the whole answer once all are. */
function answered(
  request: unknown,
  progress: Progress,
  question: Question,
  answer: string | string[],
): ChatPress {
  const answers = { ...progress.answers, [question.question]: answer };
  const step = progress.step + 1;
  if (step >= questionsOf(request).length) return { response: { answers } };
  return { progress: { step, answers, toggled: [] } satisfies Progress };
}

export const questionChatView: ChatView = {
  detail(request, kept) {
    const questions = questionsOf(request);
    const progress = progressOf(kept);
    const question = current(request, progress);
    const shown = question ? [question] : questions;
    const counter =
      question && questions.length > 1 ? `Question ${progress.step + 1} of ${questions.length}\n` : "";
    const text = shown
      .map((q) =>
        [
          q.multiSelect ? `${q.question} (choose any, then Done)` : q.question,
          ...(q.options ?? []).map((o) => `• ${o.label}${o.description ? ` — ${o.description}` : ""}`),
        ].join("\n"),
      )
      .join("\n\n");
    return counter + text;
  },
  choices(request, kept) {
    const progress = progressOf(kept);
    const question = current(request, progress);
    if (!question) return [];
    const options = question.options ?? [];
    const choices: ChatChoice[] = question.multiSelect
      ? options.map((option, index) => ({
          code: `t${index}`,
          label: `${progress.toggled.includes(index) ? "☑" : "☐"} ${shortLabel(option.label)}`,
        }))
      : options.map((option, index) => ({ code: `o${index}`, label: shortLabel(option.label) }));
    if (question.multiSelect && progress.toggled.length > 0)
      choices.push({ code: DONE, label: "Done", style: "primary" });
    choices.push({ code: OTHER, label: "Other…", needsText: OTHER_TEXT });
    return choices;
  },
  press(request, kept, code, text) {
    const progress = progressOf(kept);
    const question = current(request, progress);
    if (!question) return null;
    const options = question.options ?? [];
    const chosen = progress.toggled.map((index) => options[index]?.label).filter((l): l is string => !!l);
    const index = /^[ot]\d{1,3}$/.test(code) ? Number(code.slice(1)) : -1;
    if (code.startsWith("o") && !question.multiSelect && options[index])
      return answered(request, progress, question, options[index].label);
    if (code.startsWith("t") && question.multiSelect && options[index]) {
      const toggled = progress.toggled.includes(index)
        ? progress.toggled.filter((i) => i !== index)
        : [...progress.toggled, index].sort((a, b) => a - b);
      return { progress: { ...progress, toggled } satisfies Progress };
    }
    if (code === DONE && question.multiSelect && chosen.length > 0)
      return answered(request, progress, question, chosen);
    const other = text?.trim();
    if (code === OTHER && other)
      return answered(request, progress, question, question.multiSelect ? [...chosen, other] : other);
    return null;
  },
};
