// Answering cards line by line in a terminal: a question as numbered options with "Other" and
// multi-select, an approval as approve / always / deny with a reason, a form field by field
// (form-prompt.ts), a page to visit (url-prompt.ts). Pure: text in, text out.
import type { Question } from "../src/interactions/kinds/question";
import type { CommandInput } from "../web/src/client";
import { type AnswerValue, questionsOf } from "../web/src/interaction-view";
import { FormPrompt, formFields } from "./form-prompt";
import { urlPrompt } from "./url-prompt";

export interface Card {
  /** The card's own id; events stored before interactions had ids of their own leave it out. */
  interactionId?: string | undefined;
  toolCallId: string;
  kind: string;
  toolName: string;
  request: unknown;
}

export type Reply =
  /** Show these lines and wait for another line with this prompt. */
  | { kind: "ask"; lines: string[]; prompt: string }
  /** The card is answered: send this command. */
  | { kind: "send"; command: CommandInput };

export interface CardPrompt {
  /** The lines and prompt that open (or re-open, after an error) the card. */
  start(): Reply;
  /** One typed line. */
  input(line: string): Reply;
}

/** A prompt for a card, or `null` for a kind the terminal cannot answer (the browser can). */
export function promptFor(card: Card): CardPrompt | null {
  if (card.kind === "question") {
    const questions = questionsOf(card.request);
    return questions.length > 0 ? new QuestionPrompt(card.toolCallId, questions) : null;
  }
  if (card.kind === "approval") return new ApprovalPrompt(card);
  if (card.kind === "form") {
    const form = formFields(card.request);
    return form ? new FormPrompt(card, form) : null;
  }
  if (card.kind === "url") return urlPrompt(card);
  return null;
}

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

class ApprovalPrompt implements CardPrompt {
  private denying = false;
  private editing = false;

  constructor(private readonly card: Card) {}

  start(): Reply {
    this.denying = false;
    this.editing = false;
    const request = (this.card.request ?? {}) as {
      toolName?: unknown;
      description?: unknown;
      input?: unknown;
      risk?: unknown;
    };
    const tool = typeof request.toolName === "string" ? request.toolName : this.card.toolName;
    const what =
      typeof request.description === "string" ? request.description : JSON.stringify(request.input ?? {});
    const risk = typeof request.risk === "string" ? ` (${request.risk})` : "";
    return {
      kind: "ask",
      lines: [
        `! Approve ${tool}${risk}? ${what}`,
        "  a) approve   l) always allow this tool   e) edit, then approve   d) deny",
      ],
      prompt: "a/l/e/d› ",
    };
  }

  /** The arguments as one line of JSON to retype; the server checks them against the tool's schema. */
  private edit(text: string): Reply {
    if (text === "") return this.start();
    let edited: unknown;
    try {
      edited = JSON.parse(text);
    } catch (error) {
      return { kind: "ask", lines: [`Not valid JSON: ${(error as Error).message}`], prompt: "arguments› " };
    }
    if (typeof edited !== "object" || edited === null || Array.isArray(edited)) {
      return { kind: "ask", lines: ["The arguments must be a JSON object ({ … })."], prompt: "arguments› " };
    }
    const updatedInput = edited as Record<string, unknown>;
    return { kind: "send", command: { type: "approve", toolCallId: this.card.toolCallId, updatedInput } };
  }

  input(line: string): Reply {
    const text = line.trim();
    if (this.editing) return this.edit(text);
    if (this.denying) {
      return {
        kind: "send",
        command: { type: "deny", toolCallId: this.card.toolCallId, ...(text ? { reason: text } : {}) },
      };
    }
    const choice = text.toLowerCase();
    if (choice === "a" || choice === "approve")
      return { kind: "send", command: { type: "approve", toolCallId: this.card.toolCallId } };
    if (choice === "l" || choice === "always")
      return { kind: "send", command: { type: "approve", toolCallId: this.card.toolCallId, remember: true } };
    if (choice === "d" || choice === "deny") {
      this.denying = true;
      return { kind: "ask", lines: [], prompt: "reason (Enter for none)› " };
    }
    if (choice === "e" || choice === "edit") {
      this.editing = true;
      const input = (this.card.request as { input?: unknown } | null)?.input ?? {};
      return {
        kind: "ask",
        lines: [
          "Edit the arguments as one line of JSON (Enter alone goes back):",
          `  ${JSON.stringify(input)}`,
        ],
        prompt: "arguments› ",
      };
    }
    return { kind: "ask", lines: ["Type a, l, e or d."], prompt: "a/l/e/d› " };
  }
}
