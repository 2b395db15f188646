// The question kind's request: AskUserQuestion's input schema as the Claude Agent SDK defines it,
// with the limits every device can show. Apart from the kind's answers so both can import it.
import * as z from "zod";
import { lazySchema } from "../../protocol/lazy-schema";
import { MAX_PREVIEW_CHARS } from "../../protocol/limits";

const MAX_QUESTIONS = 4;
export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 4;
export const MAX_HEADER_CHARS = 12;
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
export const QuestionOption = lazySchema(() =>
  z.object({
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
  }),
);

export const Question = lazySchema(() =>
  z.object({
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
        if (duplicate !== null)
          ctx.addIssue({ code: "custom", message: `label "${duplicate}" is used twice` });
      })
      .describe(
        `${MIN_OPTIONS} to ${MAX_OPTIONS} distinct choices. Do not add an "Other" option: the user can always type their own answer.`,
      ),
    multiSelect: z
      .boolean()
      .default(false)
      .describe("True when the user may pick several options rather than exactly one."),
  }),
);
export type Question = z.infer<typeof Question>;

/** The AskUserQuestion tool input (the Claude Agent SDK's schema). */
export const QuestionRequest = lazySchema(() =>
  z.object({
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
  }),
);
export type QuestionRequest = z.infer<typeof QuestionRequest>;
