// The question kind's view, zod-free: for the page's card and the terminal's prompt the questions
// read defensively, and the answers; in a chat message one question at a time, with its options (and
// their descriptions) as buttons — single-select answers at a press, multi-select toggles then Done —
// and Other as text. Several questions are answered in turn and sent once, as one answer.
import type { AnswerValue } from "../../protocol/wire/commands";
import { type ChatChoice, type ChatPress, type ChatView, field, shortLabel } from "./chat-view";
import type { Question as KindQuestion } from "./question";

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
