// A question answered in a terminal: numbered options with "Other" and multi-select, one
// question after another, sent as the question kind's answers.
import { type AskedQuestion as Question, readQuestions } from "../src/interactions/kinds/question-view";
import type { AnswerValue } from "../src/protocol/wire/commands";
import type { Card, CardPrompt, Reply, TerminalPrompt } from "./card-prompt";

export const questionPrompt: TerminalPrompt = (card: Card) => {
  const questions = readQuestions(card.request);
  return questions.length > 0 ? new QuestionPrompt(card.toolCallId, questions) : null;
};

class QuestionPrompt implements CardPrompt {
  private index = 0;
  private answers: Record<string, AnswerValue> = {};
  /** Labels picked together with "Other", while its text is awaited. */
  private awaitingOther: string[] | null = null;

  constructor(
    private readonly toolCallId: string,
    private readonly questions: Question[],
  ) {}

  start(): Reply {
    this.index = 0;
    this.answers = {};
    this.awaitingOther = null;
    return this.ask();
  }

  input(line: string): Reply {
    const question = this.questions[this.index]!;
    const text = line.trim();
    if (this.awaitingOther) {
      if (!text) return { kind: "ask", lines: ["Type your answer (it cannot be empty)."], prompt: "other› " };
      this.answers[question.question] = question.multiSelect ? [...this.awaitingOther, text] : text;
      this.awaitingOther = null;
      return this.next();
    }
    const other = question.options.length + 1;
    const picks = text
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    const valid = picks.length > 0 && picks.every((n) => Number.isInteger(n) && n >= 1 && n <= other);
    if (!valid || (!question.multiSelect && picks.length !== 1)) {
      const how = question.multiSelect
        ? `numbers from 1 to ${other}, e.g. 1,3`
        : `a number from 1 to ${other}`;
      return { kind: "ask", lines: [`Type ${how}.`], prompt: this.promptText(question) };
    }
    const labels = [...new Set(picks)]
      .sort((a, b) => a - b)
      .flatMap((n) => (n === other ? [] : [question.options[n - 1]!.label]));
    if (picks.includes(other)) {
      this.awaitingOther = labels;
      return { kind: "ask", lines: [], prompt: "other› " };
    }
    this.answers[question.question] = question.multiSelect ? labels : labels[0]!;
    return this.next();
  }

  private next(): Reply {
    this.index += 1;
    if (this.index < this.questions.length) return this.ask();
    return {
      kind: "send",
      command: { type: "submit_answers", toolCallId: this.toolCallId, answers: this.answers },
    };
  }

  private ask(): Reply {
    const question = this.questions[this.index]!;
    const count = this.questions.length > 1 ? ` (${this.index + 1}/${this.questions.length})` : "";
    const lines = [
      `? [${question.header}]${count} ${question.question}`,
      ...question.options.map(
        (option, i) => `  ${i + 1}) ${option.label}${option.description ? ` — ${option.description}` : ""}`,
      ),
      `  ${question.options.length + 1}) Other — type your own answer`,
    ];
    if (question.multiSelect) lines.push("  Pick one or more, separated by commas.");
    return { kind: "ask", lines, prompt: this.promptText(question) };
  }

  private promptText(question: Question): string {
    return question.multiSelect ? "choices› " : "choice› ";
  }
}
