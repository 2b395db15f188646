// The AskUserQuestion card: one fieldset per question (radios or checkboxes, descriptions, option
// previews as markdown, an always-available "Other" field, an optional note), submit enabled only
// when all are answered (a lone single-choice question submits on click), then a compact summary.

import {
  allAnswered,
  answerSummary,
  type AskedQuestion as Question,
  readQuestions,
} from "../../../../src/interactions/kinds/question-view";
import type { AnswerValue, InteractionResolution } from "../../../../src/protocol/index";
import type { InteractionState } from "../../session-state";
import { AnswerableCard } from "../cards/answerable-card";
import { isTextEntry } from "../cards/interaction-card";
import { h, replaceChildren } from "../dom";
import { renderMarkdown } from "../markdown";

const MAX_NOTE_CHARS = 2_000;

let cardCount = 0;

interface QuestionInputs {
  question: Question;
  fieldset: HTMLFieldSetElement;
  choices: HTMLInputElement[];
  other: HTMLInputElement;
  otherText: HTMLInputElement;
  note: HTMLTextAreaElement;
}

export class QuestionCard extends AnswerableCard {
  readonly el: HTMLElement;
  private readonly questions: Question[];
  private readonly inputs: QuestionInputs[];
  private readonly submit: HTMLButtonElement;
  private readonly form: HTMLFormElement;
  private readonly summary = h("dl", { class: "answer-summary", hidden: true });
  /** One single-choice question: a click on an option is the whole answer, so it submits at once. */
  private readonly clickSubmits: boolean;

  constructor(interaction: InteractionState) {
    super();
    const id = `q${++cardCount}`;
    this.questions = readQuestions(interaction.request);
    this.clickSubmits = this.questions.length === 1 && this.questions[0]?.multiSelect === false;
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
      { role: "group", class: "card question-card", tabindex: "0", "aria-label": "Question from the agent" },
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
      // A pointer pick (not an arrow key, which also checks radios) of a lone single choice submits.
      let pointer = false;
      if (this.clickSubmits) {
        input.addEventListener("change", () => {
          if (pointer) queueMicrotask(() => this.form.requestSubmit());
          pointer = false;
        });
      }
      return h(
        "label",
        {
          class: "option",
          on: { pointerdown: () => (pointer = true), pointerleave: () => (pointer = false) },
        },
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
    const note = h("textarea", {
      rows: 2,
      maxlength: String(MAX_NOTE_CHARS),
      placeholder: "Anything the agent should know about this answer?",
      "aria-label": `Note on: ${question.question}`,
    });
    const preview = this.previewPane(question, choices);
    const fieldset = h(
      "fieldset",
      { class: preview ? "question has-previews" : "question" },
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
      preview?.el,
      h(
        "details",
        { class: "question-note" },
        h("summary", { class: "note-toggle", text: "Add a note" }),
        note,
      ),
    );
    preview?.show(null);
    return { question, fieldset, choices, other, otherText, note };
  }

  /**
   * The markdown preview of the option in focus, else the one chosen, else the first with one
   * (the SDK's `preview`); null when no option of the question has a preview.
   */
  private previewPane(
    question: Question,
    choices: HTMLInputElement[],
  ): { el: HTMLElement; show(focused: HTMLInputElement | null): void } | null {
    if (!question.options.some((option) => option.preview)) return null;
    // A long preview scrolls, so keyboard users can focus it to scroll it too.
    const el = h("div", {
      class: "option-preview markdown",
      "aria-live": "polite",
      tabindex: "0",
      role: "region",
      "aria-label": `Preview: ${question.header ?? question.question}`,
    });
    let shown: string | undefined;
    const show = (focused: HTMLInputElement | null) => {
      const pick = focused ?? choices.find((c) => c.checked) ?? null;
      const option =
        question.options[pick ? choices.indexOf(pick) : -1] ?? question.options.find((o) => o.preview);
      const text = option?.preview ?? "";
      el.hidden = text === "";
      if (text !== shown) renderMarkdown(el, text);
      shown = text;
    };
    for (const choice of choices) {
      choice.addEventListener("focus", () => show(choice));
      choice.addEventListener("change", () => show(choice));
      choice.closest("label")?.addEventListener("mouseenter", () => show(choice));
    }
    return { el, show };
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

  private notes(): Record<string, { notes: string }> | undefined {
    const entries = this.inputs
      .map(({ question, note }) => [question.question, note.value.trim()] as const)
      .filter(([, text]) => text !== "")
      .map(([question, notes]) => [question, { notes }] as const);
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  }

  private onSubmit(event: Event): void {
    event.preventDefault();
    this.refresh();
    if (this.submit.disabled) return;
    const answers = this.answers() as Record<string, AnswerValue>;
    const annotations = this.notes();
    void this.respond({ answers, ...(annotations ? { annotations } : {}) });
  }

  protected lockControls(locked: boolean): void {
    for (const control of this.form.querySelectorAll("input, textarea")) {
      (control as HTMLInputElement | HTMLTextAreaElement).disabled = locked;
    }
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

  /**
   * 1–9 pick an option of the focused (or first unanswered) question (a lone single choice is then
   * sent); Enter submits; Esc leaves for the message box, where a reply answers the card in chat.
   */
  protected handleCardKey(event: KeyboardEvent): boolean {
    if (!this.open() || event.altKey || event.ctrlKey || event.metaKey) return false;
    if (event.key === "Escape") {
      this.context?.focusMessageBox?.();
      return true;
    }
    if (event.target instanceof HTMLTextAreaElement) return false;
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
      choice.dispatchEvent(new Event("change"));
      if (this.clickSubmits) this.form.requestSubmit();
      // A single choice is complete: move on so the next digits answer the next question.
      else if (!target.question.multiSelect) this.focusAfter(target);
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
