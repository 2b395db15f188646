// The `question` kind: the model's AskUserQuestion call, in the Claude Agent SDK's own input schema,
// answered by a person choosing options or typing an "Other" answer on any device.
import { defineInteraction, type ToolResult } from "../define-interaction";
import { describeDuration } from "../describe-duration";
import { parseQuestionAnswers, type QuestionResponse } from "./question-answers";
import { MAX_HEADER_CHARS, MAX_OPTIONS, MIN_OPTIONS, QuestionRequest } from "./question-request";

export { Question, QuestionOption, QuestionRequest } from "./question-request";

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
