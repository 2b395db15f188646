// A form (MCP elicitation, form mode) answered field by field in a terminal: text, numbers, yes/no,
// numbered single and multiple choices, defaults on Enter; `!decline` and `!cancel` at any field.
// Reads the request structurally; the server checks the values again and names any field that does not fit.
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

function optionsOf(property: Json): Option[] | null {
  const source = property.type === "array" && isRecord(property.items) ? property.items : property;
  if (Array.isArray(source.oneOf) || Array.isArray(source.anyOf)) {
    const list = (source.oneOf ?? source.anyOf) as Json[];
    return list.map((option) => ({
      value: String(option.const),
      label: String(option.title ?? option.const),
    }));
  }
  if (Array.isArray(source.enum)) {
    const names = Array.isArray(property.enumNames) ? property.enumNames : [];
    return source.enum.map((value, i) => ({ value: String(value), label: String(names[i] ?? value) }));
  }
  return null;
}

/** The fields of a form request, in schema order; `null` when the request is not a readable form. */
export function formFields(request: unknown): { message: string; fields: Field[] } | null {
  if (!isRecord(request) || !isRecord(request.requestedSchema)) return null;
  const schema = request.requestedSchema;
  if (!isRecord(schema.properties)) return null;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const fields = Object.entries(schema.properties).flatMap(([key, property]): Field[] => {
    if (!isRecord(property)) return [];
    const type = property.type;
    if (
      type !== "string" &&
      type !== "number" &&
      type !== "integer" &&
      type !== "boolean" &&
      type !== "array"
    )
      return [];
    return [
      {
        key,
        label: typeof property.title === "string" ? property.title : key,
        description: typeof property.description === "string" ? property.description : null,
        type,
        required: required.has(key),
        options: optionsOf(property),
        defaultValue: property.default,
      },
    ];
  });
  return { message: typeof request.message === "string" ? request.message : "", fields };
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
