// Checks the values a person submitted against a form's schema, field by field, so a refusal names
// every field that does not fit (`age: must be at most 120`). Free of zod on purpose: the server's
// form kind and the browser's form card run this same code, so they can never disagree.

import { MAX_TEXT_FIELD_CHARS } from "../limits";
import type { ElicitValue, FormFields, PrimitiveSchema } from "./form-fields";

export type ContentCheck =
  | { ok: true; content: Record<string, ElicitValue> }
  | { ok: false; fields: Record<string, string> };

/** The options of a single or multiple choice, with the label a person sees; null for other fields. */
export function optionsOf(field: PrimitiveSchema): Array<{ value: string; label: string }> | null {
  if (field.type === "array") {
    const items = field.items;
    if ("anyOf" in items) return items.anyOf.map((o) => ({ value: o.const, label: o.title || o.const }));
    return items.enum.map((value) => ({ value, label: value }));
  }
  if (field.type !== "string") return null;
  if ("oneOf" in field) return field.oneOf.map((o) => ({ value: o.const, label: o.title || o.const }));
  if (!("enum" in field)) return null;
  const names = "enumNames" in field ? field.enumNames : [];
  return field.enum.map((value, i) => ({ value, label: names[i] || value }));
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339, with seconds and the offset optional: a browser's date-and-time input sends neither.
const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)?$/i;

function isDate(value: string): boolean {
  const match = DATE.exec(value);
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

function isUri(value: string): boolean {
  if (!/^[a-z][a-z\d+.-]*:\S+$/i.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

const FORMAT_CHECKS: Record<string, { test(value: string): boolean; message: string }> = {
  email: { test: (v) => /^[^\s@]+@[^\s@]+\.[^\s@.]+$/.test(v), message: "must be an email address" },
  uri: { test: isUri, message: "must be a URI such as https://example.com" },
  date: { test: isDate, message: "must be a date like 2026-11-23" },
  "date-time": {
    test: (v) => {
      const match = DATE_TIME.exec(v);
      return match !== null && isDate(match[1] ?? "");
    },
    message: "must be a date and time like 2026-11-23T14:30",
  },
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function checkString(field: Extract<PrimitiveSchema, { type: "string" }>, value: unknown): string | null {
  if (typeof value !== "string") return "must be text";
  const options = optionsOf(field);
  if (options) {
    if (options.some((o) => o.value === value)) return null;
    return `must be one of ${options.map((o) => `"${o.value}"`).join(", ")}`;
  }
  const string = field as Extract<PrimitiveSchema, { minLength?: number }>;
  const max = Math.min(string.maxLength ?? MAX_TEXT_FIELD_CHARS, MAX_TEXT_FIELD_CHARS);
  if (string.minLength !== undefined && value.length < string.minLength)
    return `must be at least ${plural(string.minLength, "character")}`;
  if (value.length > max) return `must be at most ${plural(max, "character")}`;
  const format = string.format ? FORMAT_CHECKS[string.format] : undefined;
  if (format && !format.test(value)) return format.message;
  return null;
}

function checkValue(field: PrimitiveSchema, value: unknown): string | null {
  switch (field.type) {
    case "string":
      return checkString(field, value);
    case "number":
    case "integer": {
      if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
      if (field.type === "integer" && !Number.isInteger(value)) return "must be a whole number";
      if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
      return null;
    }
    case "boolean":
      return typeof value === "boolean" ? null : "must be true or false";
    case "array": {
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
        return "must be a list of options";
      const allowed = (optionsOf(field) ?? []).map((o) => o.value);
      const stray = value.find((v) => !allowed.includes(v));
      if (stray !== undefined) return `"${stray}" is not one of the options`;
      if (new Set(value).size !== value.length) return "lists an option twice";
      if (field.minItems !== undefined && value.length < field.minItems)
        return `choose at least ${plural(field.minItems, "option")}`;
      if (field.maxItems !== undefined && value.length > field.maxItems)
        return `choose at most ${plural(field.maxItems, "option")}`;
      return null;
    }
  }
}

/**
 * Validates `content` against `schema`: every required field present (a blank text counts as
 * missing), every value of its field's type and within its bounds, formats and options, and no
 * field the form does not have. Defaults are the card's to fill in; nothing is added here.
 */
export function checkContent(schema: FormFields, content: Record<string, unknown>): ContentCheck {
  const fields: Record<string, string> = {};
  const required = new Set(schema.required ?? []);
  for (const [name, field] of Object.entries(schema.properties)) {
    const value = content[name];
    const blank = value === undefined || value === null || (field.type === "string" && value === "");
    if (blank) {
      if (required.has(name)) fields[name] = "is required";
      continue;
    }
    const problem = checkValue(field, value);
    if (problem) fields[name] = problem;
  }
  for (const name of Object.keys(content)) {
    if (!Object.hasOwn(schema.properties, name)) fields[name] = "is not a field of this form";
  }
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  // Blank optional values are left out, so the model sees only what the person filled in.
  const kept = Object.entries(content).filter(([, v]) => v !== null && v !== "" && v !== undefined);
  return { ok: true, content: Object.fromEntries(kept) as Record<string, ElicitValue> };
}

/** `age: must be at most 120; email: must be an email address`. */
export function describeFields(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([name, problem]) => `${name}: ${problem}`)
    .join("; ");
}
