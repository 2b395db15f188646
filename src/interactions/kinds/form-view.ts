// The form kind's view, zod-free so the page's card and the terminal's prompt share it: the fields
// of an MCP form as they are laid out, the values read back from inputs, and the summary once resolved.

import { optionsOf } from "../../protocol/forms/form-content";
import type {
  ElicitationSchema,
  ElicitRequestFormParams,
  ElicitValue,
  PrimitiveSchema,
} from "../../protocol/index";
import { type ChatView, field, type ModalField } from "./chat-view";

export type FieldControl =
  | "text"
  | "email"
  | "url"
  | "date"
  | "datetime-local"
  | "number"
  | "checkbox"
  | "radios"
  | "select"
  | "checkboxes";

export interface FormField {
  name: string;
  label: string;
  description: string;
  required: boolean;
  schema: PrimitiveSchema;
  control: FieldControl;
  options: Array<{ value: string; label: string }>;
}

/** Up to this many options show as radios; more become a drop-down. */
const MAX_RADIOS = 5;
const FORMAT_CONTROLS: Record<string, FieldControl> = {
  email: "email",
  uri: "url",
  date: "date",
  "date-time": "datetime-local",
};

function controlOf(schema: PrimitiveSchema, options: unknown[] | null): FieldControl {
  if (schema.type === "array") return "checkboxes";
  if (options) return options.length <= MAX_RADIOS ? "radios" : "select";
  if (schema.type === "boolean") return "checkbox";
  if (schema.type === "number" || schema.type === "integer") return "number";
  return ("format" in schema && schema.format && FORMAT_CONTROLS[schema.format]) || "text";
}

/** Reads a form request defensively (it was validated by the server); unknown shapes give no fields. */
export function formOf(request: unknown): {
  message: string;
  fields: FormField[];
  schema: ElicitationSchema;
} {
  const form = request as Partial<ElicitRequestFormParams> | null;
  const schema = form?.requestedSchema ?? { type: "object", properties: {} };
  const properties = schema.properties ?? {};
  const required = new Set(form?.requestedSchema?.required ?? []);
  const fields = Object.entries(properties).map(([name, schema]): FormField => {
    const options = optionsOf(schema);
    return {
      name,
      label: schema.title || name,
      description: schema.description ?? "",
      required: required.has(name),
      schema,
      control: controlOf(schema, options),
      options: options ?? [],
    };
  });
  return { message: typeof form?.message === "string" ? form.message : "", fields, schema };
}

/** What a date-and-time input can show: `2026-12-01T10:30` from any RFC 3339 value. */
export function toLocalDateTime(value: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.exec(value)?.[0] ?? "";
}

/** A value typed into an input, as the server expects it; blank stays blank (left out). */
export function fieldValue(field: FormField, raw: string): ElicitValue | "" {
  if (raw.trim() === "") return "";
  if (field.control !== "number") return raw;
  const number = Number(raw);
  return Number.isNaN(number) ? raw : number;
}

function display(field: FormField | undefined, value: unknown): string {
  const label = (v: unknown) => field?.options.find((o) => o.value === v)?.label ?? String(v);
  if (Array.isArray(value)) return value.length === 0 ? "—" : value.map(label).join(", ");
  if (typeof value === "boolean") return value ? "Yes" : "No";
  return label(value);
}

/** `label: value` lines for the submitted values, in the form's order, with option titles. */
export function formSummary(fields: FormField[], content: unknown): Array<{ label: string; value: string }> {
  const values = (content && typeof content === "object" ? content : {}) as Record<string, unknown>;
  return fields
    .filter((field) => values[field.name] !== undefined)
    .map((field) => ({ label: field.label, value: display(field, values[field.name]) }));
}

type ModalProperty = {
  type?: unknown;
  title?: unknown;
  description?: unknown;
  enum?: unknown;
  oneOf?: unknown;
  minLength?: unknown;
  maxLength?: unknown;
  default?: unknown;
};

const someText = (value: unknown): string | null => (typeof value === "string" && value ? value : null);
const someCount = (value: unknown): number | null => (typeof value === "number" ? value : null);

/**
 * A form in a chat message: answered in Parley, or in a platform's modal when every field is a
 * string or a number (a modal holds text inputs and nothing to tick or pick). The texts go back as
 * the form's `accept`, which the session checks field by field as it does the page's.
 */
export const formChatView: ChatView = {
  detail: () => null,
  choices: () => [],
  press: () => null,
  modalFields(request, max) {
    const schema = field(request, "requestedSchema");
    const properties = field(schema, "properties");
    if (typeof properties !== "object" || properties === null) return null;
    const requiredList = field(schema, "required");
    const required = Array.isArray(requiredList) ? requiredList : [];
    const entries = Object.entries(properties as Record<string, ModalProperty>);
    if (entries.length === 0 || entries.length > max) return null;
    const fields: ModalField[] = [];
    for (const [name, property] of entries) {
      const type = property.type;
      if (type !== "string" && type !== "number" && type !== "integer") return null;
      if (property.enum !== undefined || property.oneOf !== undefined) return null;
      fields.push({
        name,
        label: someText(property.title) ?? name,
        type,
        required: required.includes(name),
        description: someText(property.description),
        minLength: someCount(property.minLength),
        maxLength: someCount(property.maxLength),
        value: property.default === undefined ? null : String(property.default),
      });
    }
    return fields;
  },
  // An empty optional field is left out; a number field that reads as a number becomes one, and
  // anything else is sent as written, for the session to refuse with the field named.
  modalResponse(_request, fields, texts) {
    const content: Record<string, string | number> = {};
    for (const input of fields) {
      const written = (texts[input.name] ?? "").trim();
      if (!written && !input.required) continue;
      const number = Number(written);
      content[input.name] =
        input.type !== "string" && written !== "" && Number.isFinite(number) ? number : written;
    }
    return { action: "accept", content };
  },
};
