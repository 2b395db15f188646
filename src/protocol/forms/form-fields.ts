// One field of an MCP form (spec 2025-11-25, `PrimitiveSchemaDefinition`): the shapes a property of
// `requestedSchema` may take, and the values a person may submit. The bottom of the form modules:
// the form request (elicitation.ts) and the zod-free content check (form-content.ts) both build on it.
import * as z from "zod";
import { lazySchema } from "../lazy-schema";
import { MAX_TEXT_FIELD_CHARS } from "../limits";

/** A form has few fields: a person fills it in on a phone. */
export const MAX_FORM_FIELDS = 20;
export const MAX_FORM_OPTIONS = 50;
const MAX_TITLE_CHARS = 200;
const MAX_DESCRIPTION_CHARS = 1_000;
/** Longest field name, and the unit other identifiers of a form are bounded by. */
export const MAX_KEY_CHARS = 64;
/**
 * What a field name may be: letters, digits, `_`, `.` and `-`. A name is shown (a label, the
 * terminal's prompt) and used as a key; no spaces, quotes, controls or look-alike characters.
 */
export const FORM_FIELD_KEY = /^[A-Za-z0-9_.-]{1,64}$/;

export const FieldKey = lazySchema(() =>
  z
    .string()
    .min(1, "field names must not be empty")
    .max(MAX_KEY_CHARS, `field names must be at most ${MAX_KEY_CHARS} characters`)
    .regex(FORM_FIELD_KEY, "field names may hold only letters, digits, '_', '.' and '-'"),
);

const title = lazySchema(() => z.string().max(MAX_TITLE_CHARS).optional());
const description = lazySchema(() => z.string().max(MAX_DESCRIPTION_CHARS).optional());
const count = lazySchema(() => z.number().int().nonnegative().optional());
const optionValue = lazySchema(() => z.string().min(1, "an option must not be empty").max(MAX_TITLE_CHARS));
const values = lazySchema(() =>
  z.array(optionValue).min(1, "give at least one option").max(MAX_FORM_OPTIONS),
);
const titledOptions = lazySchema(() =>
  z
    .array(z.strictObject({ const: optionValue, title: z.string().max(MAX_TITLE_CHARS) }))
    .min(1, "give at least one option")
    .max(MAX_FORM_OPTIONS),
);

export const STRING_FORMATS = ["email", "uri", "date", "date-time"] as const;

export const StringSchema = lazySchema(() =>
  z.strictObject({
    type: z.literal("string"),
    title,
    description,
    minLength: count,
    maxLength: count,
    format: z
      .enum(STRING_FORMATS, { error: `format must be one of ${STRING_FORMATS.join(", ")}` })
      .optional(),
    default: z.string().max(MAX_TEXT_FIELD_CHARS).optional(),
  }),
);
export const NumberSchema = lazySchema(() =>
  z.strictObject({
    type: z.enum(["number", "integer"]),
    title,
    description,
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    default: z.number().optional(),
  }),
);
export const BooleanSchema = lazySchema(() =>
  z.strictObject({
    type: z.literal("boolean"),
    title,
    description,
    default: z.boolean().optional(),
  }),
);
export const UntitledSingleSelectEnumSchema = lazySchema(() =>
  z.strictObject({
    type: z.literal("string"),
    title,
    description,
    enum: values,
    default: z.string().optional(),
  }),
);
/** The older spelling of titled options, kept by the spec for existing servers. */
export const LegacyTitledEnumSchema = lazySchema(() =>
  UntitledSingleSelectEnumSchema.extend({
    enumNames: z.array(z.string().max(MAX_TITLE_CHARS)),
  }),
);
export const TitledSingleSelectEnumSchema = lazySchema(() =>
  z.strictObject({
    type: z.literal("string"),
    title,
    description,
    oneOf: titledOptions,
    default: z.string().optional(),
  }),
);
const multiSelect = {
  type: lazySchema(() => z.literal("array")),
  title,
  description,
  minItems: count,
  maxItems: count,
  default: lazySchema(() => z.array(z.string()).optional()),
};
export const UntitledMultiSelectEnumSchema = lazySchema(() =>
  z.strictObject({
    ...multiSelect,
    items: z.strictObject({ type: z.literal("string"), enum: values }),
  }),
);
export const TitledMultiSelectEnumSchema = lazySchema(() =>
  z.strictObject({
    ...multiSelect,
    items: z.strictObject({ anyOf: titledOptions }),
  }),
);

export type StringSchema = z.infer<typeof StringSchema>;
export type NumberSchema = z.infer<typeof NumberSchema>;
export type BooleanSchema = z.infer<typeof BooleanSchema>;
export type SingleSelectSchema =
  | z.infer<typeof UntitledSingleSelectEnumSchema>
  | z.infer<typeof LegacyTitledEnumSchema>
  | z.infer<typeof TitledSingleSelectEnumSchema>;
export type MultiSelectSchema =
  | z.infer<typeof UntitledMultiSelectEnumSchema>
  | z.infer<typeof TitledMultiSelectEnumSchema>;
/** One field of a form: the spec's `PrimitiveSchemaDefinition`. */
export type PrimitiveSchema =
  | StringSchema
  | NumberSchema
  | BooleanSchema
  | SingleSelectSchema
  | MultiSelectSchema;

/** A submitted value: the spec allows text, numbers, booleans and lists of chosen options. */
export const ElicitValue = lazySchema(() =>
  z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]),
);
export type ElicitValue = z.infer<typeof ElicitValue>;

/** What checking submitted values needs of a form's schema: its fields, and which are required. */
export type FormFields = { properties: Record<string, PrimitiveSchema>; required?: string[] };
