// A form (MCP elicitation, form mode) answered field by field in a terminal: text, numbers, yes/no,
// numbered single and multiple choices, defaults on Enter; `!decline` and `!cancel` at any field.
// Reads the request as the page does (form-view.ts); the server checks the values again and names any field that does not fit.
import { type FormField, formOf } from "../src/interactions/kinds/form-view";
import type { Card, CardPrompt, Reply, TerminalPrompt } from "./card-prompt";

interface Option {
  value: string;
  label: string;
}

interface Field {
  key: string;
  label: string;
  description: string | null;
  type: "string" | "number" | "integer" | "boolean" | "array";
  required: boolean;
  options: Option[] | null;
  defaultValue: unknown;
}

type Json = Record<string, unknown>;

/** Typed at any field: the MCP ElicitResult actions other than `accept`. */
const ENDINGS: Record<string, "decline" | "cancel"> = { "!decline": "decline", "!cancel": "cancel" };
/** What a form without fields (a bare confirmation) takes instead. */
const CONFIRM: Record<string, "accept" | "decline" | "cancel"> = {
  a: "accept",
  accept: "accept",
  d: "decline",
  decline: "decline",
  c: "cancel",
  cancel: "cancel",
};
const isRecord = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The fields of a form request, in schema order (read as the page reads them); `null` when it is not a form. */
export function formFields(request: unknown): { message: string; fields: Field[] } | null {
  if (!isRecord(request) || !isRecord(request.requestedSchema)) return null;
  const form = formOf(request);
  return { message: form.message, fields: form.fields.map(fieldOf) };
}

function fieldOf(field: FormField): Field {
  return {
    key: field.name,
    label: field.label,
    description: field.description || null,
    type: field.schema.type,
    required: field.required,
    options: field.options.length > 0 ? field.options : null,
    defaultValue: field.schema.default,
  };
}

export class FormPrompt implements CardPrompt {
  private index = 0;
  private content: Json = {};

  constructor(
    private readonly card: Card,
    private readonly form: { message: string; fields: Field[] },
  ) {}

  start(): Reply {
    this.index = 0;
    this.content = {};
    const title = `▤ ${this.form.message || "A form"}`;
    if (this.form.fields.length === 0) {
      return {
        kind: "ask",
        lines: [title, "  a) accept   d) decline   c) cancel (dismiss it)"],
        prompt: "a/d/c› ",
      };
    }
    return this.ask([
      title,
      "  Enter keeps a [default] or skips an optional field; !decline declines, !cancel dismisses the form.",
    ]);
  }

  input(line: string): Reply {
    const text = line.trim();
    const ending = ENDINGS[text];
    if (ending) return this.end(ending);
    if (this.form.fields.length === 0) {
      const action = CONFIRM[text.toLowerCase()];
      if (action === "accept") return this.done();
      if (action) return this.end(action);
      return { kind: "ask", lines: ["Type a, d or c."], prompt: "a/d/c› " };
    }
    const field = this.form.fields[this.index]!;
    if (text === "") {
      if (field.defaultValue !== undefined) this.content[field.key] = field.defaultValue;
      else if (field.required) return this.ask(["This field is required."]);
      return this.next();
    }
    const read = this.read(field, text);
    if (!read.ok) return this.ask([read.error]);
    this.content[field.key] = read.value;
    return this.next();
  }

  private read(field: Field, text: string): { ok: true; value: unknown } | { ok: false; error: string } {
    if (field.options) {
      const picks = text.split(/[\s,]+/).map(Number);
      const count = field.options.length;
      if (
        !picks.every((n) => Number.isInteger(n) && n >= 1 && n <= count) ||
        (field.type !== "array" && picks.length !== 1)
      ) {
        return {
          ok: false,
          error:
            field.type === "array"
              ? `Type numbers from 1 to ${count}, e.g. 1,3.`
              : `Type a number from 1 to ${count}.`,
        };
      }
      const values = [...new Set(picks)].sort((a, b) => a - b).map((n) => field.options![n - 1]!.value);
      return { ok: true, value: field.type === "array" ? values : values[0] };
    }
    if (field.type === "boolean") {
      if (/^(y|yes)$/i.test(text)) return { ok: true, value: true };
      if (/^(n|no)$/i.test(text)) return { ok: true, value: false };
      return { ok: false, error: "Type y or n." };
    }
    if (field.type === "number" || field.type === "integer") {
      const number = Number(text);
      if (!Number.isFinite(number)) return { ok: false, error: "Type a number." };
      if (field.type === "integer" && !Number.isInteger(number))
        return { ok: false, error: "Type a whole number." };
      return { ok: true, value: number };
    }
    return { ok: true, value: text };
  }

  /** A tool may ask several forms in one call, so a form is answered by its own id. */
  private target(): { interactionId: string } | { toolCallId: string } {
    return this.card.interactionId
      ? { interactionId: this.card.interactionId }
      : { toolCallId: this.card.toolCallId };
  }

  /** Declines or dismisses the form, as an MCP ElicitResult without content. */
  private end(action: "decline" | "cancel"): Reply {
    return { kind: "send", command: { type: "respond", ...this.target(), response: { action } } };
  }

  private next(): Reply {
    this.index += 1;
    return this.index < this.form.fields.length ? this.ask([]) : this.done();
  }

  private done(): Reply {
    return {
      kind: "send",
      command: {
        type: "respond",
        ...this.target(),
        response: { action: "accept", content: this.content },
      },
    };
  }

  private ask(before: string[]): Reply {
    const field = this.form.fields[this.index]!;
    const shown = field.defaultValue === undefined ? "" : ` [${[field.defaultValue].flat().join(", ")}]`;
    const lines = [
      ...before,
      `  ${field.label}${field.required ? " *" : ""}${shown}${field.description ? ` — ${field.description}` : ""}`,
    ];
    if (field.options) lines.push(...field.options.map((option, i) => `    ${i + 1}) ${option.label}`));
    const prompt = field.options
      ? field.type === "array"
        ? "choices› "
        : "choice› "
      : field.type === "boolean"
        ? "y/n› "
        : `${field.key}› `;
    return { kind: "ask", lines, prompt };
  }
}

export const formPrompt: TerminalPrompt = (card: Card) => {
  const form = formFields(card.request);
  return form ? new FormPrompt(card, form) : null;
};
