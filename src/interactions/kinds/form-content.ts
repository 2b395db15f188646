// Checks the values a person submitted against the form's stored schema, field by field, so a
// refusal names every field that does not fit (`age: must be at most 120`) and the card can show each.
import { z } from "zod";
import {
  type ElicitationSchema,
  type ElicitValue,
  optionsOf,
  type PrimitiveSchema,
} from "../../protocol/elicitation";
import { MAX_TEXT_FIELD_CHARS } from "../../protocol/limits";

export type ContentCheck =
  | { ok: true; content: Record<string, ElicitValue> }
  | { ok: false; fields: Record<string, string> };

const FORMAT_CHECKS: Record<string, { schema: z.ZodType; message: string }> = {
  email: { schema: z.email(), message: "must be an email address" },
  uri: { schema: z.url(), message: "must be a URI such as https://example.com" },
  date: { schema: z.iso.date(), message: "must be a date like 2026-11-23" },
  "date-time": {
    schema: z.iso.datetime({ local: true, offset: true }),
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
  if (format && !format.schema.safeParse(value).success) return format.message;
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
export function checkContent(schema: ElicitationSchema, content: Record<string, unknown>): ContentCheck {
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
