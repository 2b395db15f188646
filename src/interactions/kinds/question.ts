// The `question` kind: the model's AskUserQuestion call, in the Claude Agent SDK's own input schema,
// answered by a person choosing options or typing an "Other" answer on any device.
import { z } from "zod";
import { MAX_PREVIEW_CHARS } from "../../protocol/limits";
import { defineInteraction, type ToolResult } from "../define-interaction";
import { describeDuration } from "../describe-duration";
import { parseQuestionAnswers, type QuestionResponse } from "./question-answers";

const MAX_QUESTIONS = 4;
const MIN_OPTIONS = 2;
const MAX_OPTIONS = 4;
const MAX_HEADER_CHARS = 12;
// Question texts become answer keys, which the command schemas cap at 2 000 characters.
const MAX_QUESTION_CHARS = 1_000;
const MAX_LABEL_CHARS = 200;
const MAX_OPTION_DESCRIPTION_CHARS = 1_000;

function firstDuplicate(texts: readonly string[]): string | null {
  const seen = new Set<string>();
  for (const text of texts) {
    if (seen.has(text)) return text;
    seen.add(text);
  }
  return null;
}

// Trimming comes before the length checks so they measure what is kept.
export const QuestionOption = z.object({
  label: z
    .string()
    .trim()
    .min(1, "label must not be empty")
    .max(MAX_LABEL_CHARS, `label must be at most ${MAX_LABEL_CHARS} characters`)
    .describe("What the user sees and picks: concise, 1 to 5 words."),
  description: z
    .string()
    .max(MAX_OPTION_DESCRIPTION_CHARS)
    .describe("What choosing this option means or leads to, including any trade-off."),
  preview: z
    .string()
    .max(MAX_PREVIEW_CHARS, `preview must be at most ${MAX_PREVIEW_CHARS} characters`)
    .optional()
    .describe(
      "Optional markdown shown while the user looks at this option: a mockup, a code snippet or a comparison.",
    ),
});

export const Question = z.object({
  question: z
    .string()
    .trim()
    .min(1, "question must not be empty")
    .max(MAX_QUESTION_CHARS, `question must be at most ${MAX_QUESTION_CHARS} characters`)
    .describe("The full question, clear and specific, ending with a question mark."),
  header: z
    .string()
    .trim()
    .min(1, "header must not be empty")
    .max(MAX_HEADER_CHARS, `header must be at most ${MAX_HEADER_CHARS} characters`)
    .describe(`A very short tag shown above the question (at most ${MAX_HEADER_CHARS} characters).`),
  options: z
    .array(QuestionOption)
    .min(MIN_OPTIONS, `give at least ${MIN_OPTIONS} options`)
    .max(MAX_OPTIONS, `give at most ${MAX_OPTIONS} options`)
    .superRefine((options, ctx) => {
      const duplicate = firstDuplicate(options.map((option) => option.label));
      if (duplicate !== null) ctx.addIssue({ code: "custom", message: `label "${duplicate}" is used twice` });
    })
    .describe(
      `${MIN_OPTIONS} to ${MAX_OPTIONS} distinct choices. Do not add an "Other" option: the user can always type their own answer.`,
    ),
  multiSelect: z
    .boolean()
    .default(false)
    .describe("True when the user may pick several options rather than exactly one."),
});
export type Question = z.infer<typeof Question>;

/** The AskUserQuestion tool input (the Claude Agent SDK's schema). */
export const QuestionRequest = z.object({
  questions: z
    .array(Question)
    .min(1, "ask at least one question")
    .max(MAX_QUESTIONS, `ask at most ${MAX_QUESTIONS} questions at a time`)
    .superRefine((questions, ctx) => {
      const duplicate = firstDuplicate(questions.map((question) => question.question));
      if (duplicate !== null)
        ctx.addIssue({ code: "custom", message: `question "${duplicate}" is asked twice` });
    })
    .describe(`1 to ${MAX_QUESTIONS} questions to ask the user together.`),
});
export type QuestionRequest = z.infer<typeof QuestionRequest>;

/** The tool result for answers, or for a chat message that took their place. */
function resultOf(request: QuestionRequest, response: QuestionResponse): ToolResult {
  // The Claude Agent SDK's AskUserQuestion result text, word for word, so agents trained on it read
  // it as usual: `"<question>"="<answer>"` pairs joined with ", ", then the closing sentence.
  const pairs = request.questions.map((question) => {
    const notes = response.annotations?.[question.question]?.notes;
    const pair = `"${question.question}"="${response.answers[question.question] ?? ""}"`;
    return notes ? `${pair} user notes: ${notes}` : pair;
  });
  if (response.chatReply !== undefined) {
    return {
      content: `The user did not pick answers and replied in chat instead: "${response.chatReply}". Take their message as their answer to your questions.`,
      isError: false,
    };
  }
  return {
    content: `User has answered your questions: ${pairs.join(", ")}. You can now continue with the user's answers in mind.`,
    isError: false,
  };
}

/** Multiple-choice questions from the model, answered from any of the person's devices. */
export const questionInteraction = defineInteraction<QuestionRequest, QuestionResponse>({
  kind: "question",
  toolName: "AskUserQuestion",
  summary: ({ questions }) => ({
    title: "The agent has a question",
    line: `${questions[0]?.question ?? ""}${questions.length > 1 ? ` (+${questions.length - 1} more)` : ""}`,
  }),
  description: [
    "Ask the user 1 to 4 multiple-choice questions and wait for their answers.",
    "Use it when you need a preference or decision only the user can make: choosing between approaches,",
    "clarifying an ambiguous request, or confirming a direction before significant work.",
    `Each question has a short header (at most ${MAX_HEADER_CHARS} characters), ${MIN_OPTIONS} to ${MAX_OPTIONS} options`,
    "with a label and a description, and may let the user pick several options (multiSelect).",
    'The user can always answer "Other" with their own free text instead of an option, so never add an "Other" option.',
    "The user may take a while to answer; the result repeats each question with the user's answer.",
  ].join(" "),
  request: QuestionRequest,
  parseResponse: parseQuestionAnswers,
  outcome: () => "answered",
  receipt: (_outcome, response) => (response?.chatReply !== undefined ? "Answered in chat" : null),
  toResult: resultOf,
  onTimeout: (_request, { timeoutMs }) => ({
    content: `User did not respond within ${describeDuration(timeoutMs)}`,
    isError: true,
  }),
  onCancel: () => ({ content: "User cancelled the turn before answering the questions", isError: true }),
  chatReply(request, text) {
    const unanswered = { unanswered: "replied_in_chat" as const };
    const response: QuestionResponse = {
      answers: {},
      selections: {},
      annotations: Object.fromEntries(request.questions.map((question) => [question.question, unanswered])),
      chatReply: text,
    };
    return { response, result: resultOf(request, response) };
  },
});
