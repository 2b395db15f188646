// The form card (MCP elicitation): one labelled input per field, generated from the schema, with
// defaults filled in, required marks, help text and inline errors — from the same check the server
// runs, and from the server's own refusal — then Accept / Decline, a countdown and a summary receipt.

import { CommandError } from "../../../../client/session-client";
import {
  type FormField,
  fieldValue,
  formOf,
  formSummary,
  toLocalDateTime,
} from "../../../../src/interactions/kinds/form-view";
import { checkContent } from "../../../../src/protocol/forms/form-content";
import type { ElicitationSchema, ElicitValue, InteractionResolution } from "../../../../src/protocol/index";
import type { InteractionState } from "../../session-state";
import { AnswerableCard } from "../cards/answerable-card";
import { h, replaceChildren, setText } from "../dom";

let cardCount = 0;

interface FieldInputs {
  field: FormField;
  row: HTMLElement;
  inputs: Array<HTMLInputElement | HTMLSelectElement>;
  error: HTMLElement;
}

export class FormCard extends AnswerableCard {
  readonly el: HTMLElement;
  private readonly fields: FieldInputs[];
  private readonly form: HTMLFormElement;
  private readonly schema: ElicitationSchema;
  private readonly summary = h("dl", { class: "answer-summary", hidden: true });

  constructor(interaction: InteractionState) {
    super();
    const id = `f${++cardCount}`;
    const { message, fields, schema } = formOf(interaction.request);
    this.schema = schema;
    this.fields = fields.map((field, i) => this.renderField(field, `${id}-${i}`));
    const accept = h("button", { type: "submit", class: "primary", text: "Accept" });
    const decline = h("button", {
      type: "button",
      class: "danger",
      text: "Decline",
      on: { click: () => this.decline() },
    });
    this.form = h(
      "form",
      { class: "elicit-form", novalidate: true, on: { submit: (event) => this.onSubmit(event) } },
      ...this.fields.map((f) => f.row),
      h("div", { class: "card-actions" }, accept, decline, this.line),
    );
    this.el = h(
      "section",
      {
        role: "group",
        class: "card form-card",
        tabindex: "0",
        "aria-label": `Form from the agent: ${message}`,
      },
      h(
        "header",
        { class: "card-head" },
        h("span", { class: "card-title", text: message }),
        this.countdown.el,
      ),
      this.form,
      this.receipt,
      this.summary,
    );
    this.listenForKeys();
  }

  private renderField(field: FormField, id: string): FieldInputs {
    const error = h("p", { class: "field-error", id: `${id}-error`, hidden: true });
    const help = field.description
      ? h("p", { class: "hint", id: `${id}-help`, text: field.description })
      : null;
    const describedBy = [help ? `${id}-help` : "", `${id}-error`].filter(Boolean).join(" ");
    const label = h(
      "span",
      { class: "field-label" },
      field.label,
      field.required ? h("span", { class: "required-mark", "aria-hidden": "true", text: " *" }) : null,
    );
    const inputs = this.renderInputs(field, id, describedBy);
    const grouped = field.control === "radios" || field.control === "checkboxes";
    const row = grouped
      ? h(
          "fieldset",
          { class: "form-field", "data-field": field.name, "aria-describedby": describedBy },
          h("legend", {}, label),
          help,
          ...inputs.map((input, i) =>
            h(
              "label",
              { class: "option" },
              input,
              h("span", { class: "option-label", text: field.options[i]?.label }),
            ),
          ),
          error,
        )
      : h(
          "div",
          { class: "form-field", "data-field": field.name },
          field.control === "checkbox"
            ? h("label", { class: "option", for: id }, inputs[0], label)
            : h("label", { for: id }, label),
          help,
          field.control === "checkbox" ? null : inputs[0],
          error,
        );
    // Editing a field clears what was said about it; the next Accept checks again.
    row.addEventListener("input", () => this.showError({ field, row, inputs, error }, null));
    return { field, row, inputs, error };
  }

  private renderInputs(
    field: FormField,
    id: string,
    describedBy: string,
  ): Array<HTMLInputElement | HTMLSelectElement> {
    const schema = field.schema as Record<string, unknown>;
    const common = {
      name: field.name,
      "aria-describedby": describedBy,
      "aria-required": String(field.required),
    };
    const fallback = schema.default;
    if (field.control === "radios" || field.control === "checkboxes") {
      const chosen = [fallback].flat();
      const type = field.control === "radios" ? "radio" : "checkbox";
      return field.options.map((option) =>
        h("input", {
          ...common,
          type,
          name: id,
          value: option.value,
          checked: chosen.includes(option.value),
        }),
      );
    }
    if (field.control === "select") {
      const select = h(
        "select",
        { ...common, id },
        h("option", { value: "", text: "Choose…" }),
        ...field.options.map((o) => h("option", { value: o.value, text: o.label })),
      );
      select.value = typeof fallback === "string" ? fallback : "";
      return [select];
    }
    if (field.control === "checkbox")
      return [h("input", { ...common, id, type: "checkbox", checked: fallback === true })];
    const input = h("input", { ...common, id, type: field.control, class: "field-input" });
    if (field.control === "number") {
      input.step = field.schema.type === "integer" ? "1" : "any";
      if (typeof schema.minimum === "number") input.min = String(schema.minimum);
      if (typeof schema.maximum === "number") input.max = String(schema.maximum);
    }
    if (typeof schema.maxLength === "number") input.maxLength = schema.maxLength;
    if (field.required) input.required = true;
    if (fallback !== undefined) {
      input.value = field.control === "datetime-local" ? toLocalDateTime(String(fallback)) : String(fallback);
    }
    return [input];
  }

  /** The values as the inputs hold them; blank fields are left out. */
  private content(): Record<string, ElicitValue> {
    const content: Record<string, ElicitValue> = {};
    for (const { field, inputs } of this.fields) {
      const checked = inputs.filter((i) => i instanceof HTMLInputElement && i.checked).map((i) => i.value);
      let value: ElicitValue | "";
      if (field.control === "checkboxes") value = checked;
      else if (field.control === "checkbox") value = (inputs[0] as HTMLInputElement).checked;
      else if (field.control === "radios") value = checked[0] ?? "";
      else value = fieldValue(field, inputs[0]?.value ?? "");
      if (value !== "") content[field.name] = value;
    }
    return content;
  }

  private showError(inputs: FieldInputs, problem: string | null): void {
    inputs.error.hidden = problem === null;
    setText(inputs.error, problem ?? "");
    inputs.row.classList.toggle("invalid", problem !== null);
    for (const input of inputs.inputs) input.setAttribute("aria-invalid", String(problem !== null));
  }

  /** Shows each field's problem under it and focuses the first; true when there was any. */
  private showErrors(problems: Record<string, string>): boolean {
    let first: FieldInputs | null = null;
    for (const inputs of this.fields) {
      const problem = problems[inputs.field.name] ?? null;
      this.showError(inputs, problem);
      if (problem && !first) first = inputs;
    }
    first?.inputs[0]?.focus();
    return first !== null;
  }

  private onSubmit(event: Event): void {
    event.preventDefault();
    if (!this.open()) return;
    const content = this.content();
    // The server runs this same check; doing it here first points at each field before sending.
    const checked = checkContent(this.schema, content);
    if (!checked.ok && this.showErrors(checked.fields)) return;
    void this.respond({ action: "accept", content });
  }

  private decline(): void {
    void this.respond({ action: "decline" });
  }

  protected override refused(error: unknown): void {
    if (error instanceof CommandError && error.fields) this.showErrors(error.fields);
  }

  protected lockControls(locked: boolean): void {
    for (const control of this.form.querySelectorAll("input, select, button")) {
      (control as HTMLInputElement).disabled = locked;
    }
  }

  protected collapse(resolution: InteractionResolution): void {
    this.form.remove();
    const response = resolution.response as { action?: string; content?: unknown } | null;
    if (response?.action !== "accept") return;
    const lines = formSummary(
      this.fields.map((f) => f.field),
      response.content,
    );
    replaceChildren(
      this.summary,
      ...lines.flatMap((l) => [h("dt", { text: l.label }), h("dd", { text: l.value })]),
    );
    this.summary.hidden = lines.length === 0;
  }

  /** Esc declines; Enter accepts from anywhere but a button (which acts itself). */
  protected handleCardKey(event: KeyboardEvent): boolean {
    if (!this.open() || event.altKey || event.ctrlKey || event.metaKey) return false;
    if (event.key === "Escape") {
      this.decline();
      return true;
    }
    if (event.key !== "Enter" || event.target instanceof HTMLButtonElement) return false;
    this.form.requestSubmit();
    return true;
  }
}
