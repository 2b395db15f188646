// The AskUserQuestion card: one fieldset per question (radios or checkboxes, descriptions, an
// always-available "Other" field), submit enabled only when all are answered, then a compact summary.
import type { Question } from "../../../src/interactions/kinds/question";
import type { InteractionResolution } from "../../../src/protocol/index";
import { type AnswerValue, allAnswered, answerSummary, questionsOf } from "../interaction-view";
import type { InteractionState } from "../session-state";
import { AnswerableCard } from "./answerable-card";
import { h, replaceChildren } from "./dom";
import { isTextEntry } from "./interaction-card";

let cardCount = 0;

interface QuestionInputs {
  question: Question;
  fieldset: HTMLFieldSetElement;
  choices: HTMLInputElement[];
  other: HTMLInputElement;
  otherText: HTMLInputElement;
}

export class QuestionCard extends AnswerableCard {
  readonly el: HTMLElement;
  private readonly questions: Question[];
  private readonly inputs: QuestionInputs[];
  private readonly submit: HTMLButtonElement;
  private readonly form: HTMLFormElement;
  private readonly summary = h("dl", { class: "answer-summary", hidden: true });

  constructor(interaction: InteractionState) {
    super();
    const id = `q${++cardCount}`;
    this.questions = questionsOf(interaction.request);
    this.inputs = this.questions.map((question, i) => this.renderQuestion(question, `${id}-${i}`));
    this.submit = h("button", { type: "submit", class: "primary", disabled: true, text: "Submit answers" });
    this.form = h(
      "form",
      {
        class: "question-form",
        on: { submit: (event) => this.onSubmit(event), input: () => this.refresh() },
      },
      ...this.inputs.map((inputs) => inputs.fieldset),
      h("div", { class: "card-actions" }, this.submit, this.line),
    );
    this.el = h(
      "section",
      { class: "card question-card", tabindex: "0", "aria-label": "Question from the agent" },
      h(
        "header",
        { class: "card-head" },
        h("span", { class: "card-title", text: "The agent asks" }),
        this.countdown.el,
      ),
      this.form,
      this.receipt,
      this.summary,
    );
    this.listenForKeys();
  }

  private renderQuestion(question: Question, name: string): QuestionInputs {
    const type = question.multiSelect ? "checkbox" : "radio";
    const choices: HTMLInputElement[] = [];
    const rows = question.options.map((option, i) => {
      const input = h("input", { type, name, value: option.label });
      choices.push(input);
      return h(
        "label",
        { class: "option" },
        input,
        h("span", { class: "option-key", "aria-hidden": "true", text: String(i + 1) }),
        h("span", { class: "option-label", text: option.label }),
        option.description ? h("span", { class: "option-desc", text: option.description }) : null,
      );
    });
    const other = h("input", { type, name, value: "", "aria-label": "Other" });
    const otherText = h("input", {
      type: "text",
      class: "other-text",
      placeholder: "Other…",
      maxlength: "4000",
      "aria-label": `Other answer to: ${question.question}`,
    });
    // Typing an "Other" answer selects it, so the person never has to click twice.
    otherText.addEventListener("input", () => {
      other.checked = otherText.value.trim() !== "" || (question.multiSelect && other.checked);
    });
    const fieldset = h(
      "fieldset",
      { class: "question" },
      h(
        "legend",
        {},
        question.header ? h("span", { class: "chip", text: question.header }) : null,
        h("span", { class: "question-text", text: question.question }),
      ),
      question.multiSelect ? h("p", { class: "hint", text: "Choose any that apply." }) : null,
      ...rows,
      h(
        "label",
        { class: "option other" },
        other,
        h("span", { class: "option-label", text: "Other" }),
        otherText,
      ),
    );
    return { question, fieldset, choices, other, otherText };
  }

  private answers(): Record<string, AnswerValue | undefined> {
    const result: Record<string, AnswerValue | undefined> = {};
    for (const { question, choices, other, otherText } of this.inputs) {
      const picked = choices.filter((c) => c.checked).map((c) => c.value);
      const otherValue = other.checked ? otherText.value.trim() : null;
      if (question.multiSelect)
        result[question.question] = otherValue === null ? picked : [...picked, otherValue];
      else result[question.question] = otherValue ?? picked[0];
    }
    return result;
  }

  private refresh(): void {
    this.submit.disabled = !this.open() || !allAnswered(this.questions, this.answers());
  }

  private onSubmit(event: Event): void {
    event.preventDefault();
    this.refresh();
    if (this.submit.disabled) return;
    const answers = this.answers() as Record<string, AnswerValue>;
    void this.respond({ answers });
  }

  protected lockControls(locked: boolean): void {
    for (const control of this.form.querySelectorAll("input")) control.disabled = locked;
    this.refresh();
  }

  protected collapse(resolution: InteractionResolution): void {
    this.form.remove();
    if (resolution.outcome === "answered") {
      const lines = answerSummary(this.questions, resolution.response);
      replaceChildren(
        this.summary,
        ...lines.flatMap((l) => [h("dt", { text: l.header }), h("dd", { text: l.answer })]),
      );
      this.summary.hidden = false;
    }
  }

  /** 1–9 pick an option of the focused (or first unanswered) question; Enter submits. */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.open() || event.altKey || event.ctrlKey || event.metaKey) return false;
    if (event.key === "Enter" && !(event.target instanceof HTMLButtonElement)) {
      this.form.requestSubmit();
      return true;
    }
    if (isTextEntry(event.target) || !/^[1-9]$/.test(event.key)) return false;
    const target = this.currentQuestion(event.target);
    if (!target) return false;
    const n = Number(event.key) - 1;
    const choice = target.choices[n];
    if (choice) {
      choice.checked = target.question.multiSelect ? !choice.checked : true;
      choice.focus();
      this.refresh();
      // A single choice is complete: move on so the next digits answer the next question.
      if (!target.question.multiSelect) this.focusAfter(target);
    } else if (n === target.choices.length) {
      target.other.checked = true;
      target.otherText.focus();
    } else return false;
    this.refresh();
    return true;
  }

  private focusAfter(current: QuestionInputs): void {
    const next = this.inputs[this.inputs.indexOf(current) + 1];
    if (next) (next.choices[0] ?? next.other).focus();
    else this.submit.focus();
  }

  private currentQuestion(target: EventTarget | null): QuestionInputs | undefined {
    const within = this.inputs.find((i) => target instanceof Node && i.fieldset.contains(target));
    if (within) return within;
    const answers = this.answers();
    return this.inputs.find((i) => !allAnswered([i.question], answers)) ?? this.inputs[0];
  }
}
