// A form as a Discord modal, when it fits one: at most five fields, each a string or a number (a
// modal holds five text inputs and nothing to tick or pick). The values go back as the form's
// `accept`, which the card's session checks field by field as it does the page's.

/** The choice code of "Fill in" on a form's message; the modal and its submission carry it too. */
export const FILL_IN = "f";
const MAX_INPUTS = 5;
const MAX_LABEL = 45;
const MAX_PLACEHOLDER = 100;
const MAX_TITLE = 45;
const MAX_INPUT_CHARS = 4_000;

export interface FormInput {
  name: string;
  label: string;
  type: "string" | "number" | "integer";
  required: boolean;
  description: string | null;
  minLength: number | null;
  maxLength: number | null;
  value: string | null;
}

type Property = {
  type?: unknown;
  title?: unknown;
  description?: unknown;
  enum?: unknown;
  oneOf?: unknown;
  minLength?: unknown;
  maxLength?: unknown;
  default?: unknown;
};

const text = (value: unknown): string | null => (typeof value === "string" && value ? value : null);
const count = (value: unknown): number | null => (typeof value === "number" ? value : null);

/** The form's fields as text inputs; null when it does not fit a modal (then it is answered in Parley). */
export function formInputs(request: unknown): FormInput[] | null {
  const schema = (request as { requestedSchema?: { properties?: unknown; required?: unknown } } | null)
    ?.requestedSchema;
  if (!schema || typeof schema.properties !== "object" || schema.properties === null) return null;
  const required = Array.isArray(schema.required) ? schema.required : [];
  const entries = Object.entries(schema.properties as Record<string, Property>);
  if (entries.length === 0 || entries.length > MAX_INPUTS) return null;
  const inputs: FormInput[] = [];
  for (const [name, property] of entries) {
    const type = property.type;
    if (type !== "string" && type !== "number" && type !== "integer") return null;
    if (property.enum !== undefined || property.oneOf !== undefined) return null;
    inputs.push({
      name,
      label: text(property.title) ?? name,
      type,
      required: required.includes(name),
      description: text(property.description),
      minLength: count(property.minLength),
      maxLength: count(property.maxLength),
      value: property.default === undefined ? null : String(property.default),
    });
  }
  return inputs;
}

function short(value: string, max: number): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

/** Discord's modal response for the form; each input's custom_id is its place in the form. */
export function formModal(ref: number, request: unknown, inputs: FormInput[]) {
  const message = text((request as { message?: unknown } | null)?.message) ?? "Fill in the form";
  return {
    custom_id: `${ref}.${FILL_IN}`,
    title: short(message, MAX_TITLE),
    components: inputs.map((input, index) => ({
      type: 1,
      components: [
        {
          type: 4,
          custom_id: `i${index}`,
          style: input.type === "string" && (input.maxLength ?? MAX_INPUT_CHARS) > 100 ? 2 : 1,
          label: short(input.label, MAX_LABEL),
          required: input.required,
          max_length: Math.min(input.maxLength ?? MAX_INPUT_CHARS, MAX_INPUT_CHARS),
          ...(input.minLength ? { min_length: Math.min(input.minLength, MAX_INPUT_CHARS) } : {}),
          ...(input.description ? { placeholder: short(input.description, MAX_PLACEHOLDER) } : {}),
          ...(input.value !== null ? { value: short(input.value, MAX_INPUT_CHARS) } : {}),
        },
      ],
    })),
  };
}

/**
 * The submitted texts as the form's content: an empty optional field is left out, a number field
 * that reads as a number becomes one (anything else is sent as written, for the session to refuse
 * with the field named).
 */
export function formContent(inputs: FormInput[], textOf: (customId: string) => string | null) {
  const content: Record<string, string | number> = {};
  inputs.forEach((input, index) => {
    const written = (textOf(`i${index}`) ?? "").trim();
    if (!written && !input.required) return;
    const number = Number(written);
    content[input.name] =
      input.type !== "string" && written !== "" && Number.isFinite(number) ? number : written;
  });
  return content;
}
