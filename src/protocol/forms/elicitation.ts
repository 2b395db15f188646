// MCP elicitation (spec 2025-11-25), as the wire format: the request a form is opened with (a
// message and a flat schema of primitive fields, each one of form-fields.ts's shapes, consistent with
// itself), the URL request, and the results a person answers them with.
import * as z from "zod";
import { lazySchema } from "../lazy-schema";
import { MAX_TEXT_FIELD_CHARS } from "../limits";
import { optionsOf } from "./form-content";
import {
  BooleanSchema,
  ElicitValue,
  FieldKey,
  LegacyTitledEnumSchema,
  MAX_FORM_FIELDS,
  MAX_KEY_CHARS,
  NumberSchema,
  type PrimitiveSchema,
  StringSchema,
  TitledMultiSelectEnumSchema,
  TitledSingleSelectEnumSchema,
  UntitledMultiSelectEnumSchema,
  UntitledSingleSelectEnumSchema,
} from "./form-fields";

const FIELD_TYPES = "string, number, integer, boolean, or array (a multiple choice)";

/** Picks the one spec shape a property claims to be, or says why it is none of them. */
function shapeOf(property: Record<string, unknown>): z.ZodType<PrimitiveSchema> | string {
  if ("$ref" in property) return "$ref is not supported; describe the field inline";
  switch (property.type) {
    case "string":
      if ("oneOf" in property) return TitledSingleSelectEnumSchema;
      if ("enumNames" in property) return LegacyTitledEnumSchema;
      return "enum" in property ? UntitledSingleSelectEnumSchema : StringSchema;
    case "number":
    case "integer":
      return NumberSchema;
    case "boolean":
      return BooleanSchema;
    case "array": {
      const items = property.items as Record<string, unknown> | undefined;
      if (items?.type === "object" || items?.properties !== undefined)
        return "arrays of objects are not supported; a multiple choice has string options";
      return items && "anyOf" in items ? TitledMultiSelectEnumSchema : UntitledMultiSelectEnumSchema;
    }
    case "object":
      return "nested objects are not supported; forms are flat";
    default:
      return `type must be ${FIELD_TYPES}`;
  }
}

/** The consistency the spec leaves to prose: bounds in order, defaults that fit, names per option. */
function inconsistency(field: PrimitiveSchema): string | null {
  const ordered = (low: number | undefined, high: number | undefined) =>
    low === undefined || high === undefined || low <= high;
  if (field.type === "string" && !("enum" in field) && !("oneOf" in field)) {
    if (!ordered(field.minLength, field.maxLength)) return "minLength is greater than maxLength";
  }
  if (field.type === "number" || field.type === "integer") {
    if (!ordered(field.minimum, field.maximum)) return "minimum is greater than maximum";
    const d = field.default;
    if (d !== undefined && ((field.minimum ?? d) > d || (field.maximum ?? d) < d))
      return "default is outside minimum..maximum";
    if (field.type === "integer" && d !== undefined && !Number.isInteger(d))
      return "default is not an integer";
  }
  if ("enumNames" in field && field.enumNames.length !== field.enum.length)
    return "enumNames must name every enum value, in order";
  const options = optionsOf(field);
  if (options) {
    const vals = options.map((o) => o.value);
    if (new Set(vals).size !== vals.length) return "an option is listed twice";
    const defaults = field.default === undefined ? [] : [field.default].flat().map(String);
    const stray = defaults.find((d) => !vals.includes(d));
    if (stray !== undefined) return `default "${stray}" is not one of the options`;
  }
  if (field.type === "array" && !ordered(field.minItems, field.maxItems))
    return "minItems is greater than maxItems";
  return null;
}

let shapesAsJson: z.core.JSONSchema.BaseSchema | null = null;

/**
 * The shapes as JSON Schema, so a model writing a form sees them (the parser below is custom).
 * Converted when a tool list is first built rather than when the module loads (start-up CPU).
 */
function shapesAsJsonAnyOf(): z.core.JSONSchema.BaseSchema["anyOf"] {
  shapesAsJson ??= z.toJSONSchema(
    z.union([
      StringSchema,
      NumberSchema,
      BooleanSchema,
      UntitledSingleSelectEnumSchema,
      TitledSingleSelectEnumSchema,
      UntitledMultiSelectEnumSchema,
      TitledMultiSelectEnumSchema,
    ]),
    { io: "input" },
  );
  return shapesAsJson.anyOf;
}

/** A property schema: exactly one of the spec's primitive shapes, consistent with itself. */
export const PrimitiveSchemaDefinition = lazySchema(() =>
  z
    .unknown()
    .transform((raw, ctx): PrimitiveSchema => {
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
        ctx.addIssue({ code: "custom", message: "must be a JSON Schema object" });
        return z.NEVER;
      }
      const shape = shapeOf(raw as Record<string, unknown>);
      if (typeof shape === "string") {
        ctx.addIssue({ code: "custom", message: shape });
        return z.NEVER;
      }
      const parsed = shape.safeParse(raw);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const message =
            issue.code === "unrecognized_keys"
              ? `${issue.keys.map((key) => `"${key}"`).join(", ")} not supported in a form field`
              : issue.message;
          ctx.addIssue({ code: "custom", message, path: issue.path });
        }
        return z.NEVER;
      }
      const problem = inconsistency(parsed.data);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
      return parsed.data;
    })
    // JSON Schema conversion copies metadata with Object.assign, which reads the getter then.
    .meta({
      get anyOf() {
        return shapesAsJsonAnyOf();
      },
    }),
);

/** `requestedSchema`: a flat object of primitive fields, some of them required. */
export const ElicitationSchema = lazySchema(() =>
  z
    .object({
      $schema: z.string().optional(),
      type: z.literal("object"),
      properties: z
        .record(FieldKey, PrimitiveSchemaDefinition)
        .refine((p) => Object.keys(p).length <= MAX_FORM_FIELDS, `at most ${MAX_FORM_FIELDS} fields`),
      required: z.array(z.string()).optional(),
    })
    .superRefine((schema, ctx) => {
      for (const name of schema.required ?? []) {
        if (!(name in schema.properties))
          ctx.addIssue({ code: "custom", path: ["required"], message: `"${name}" is not a property` });
      }
    }),
);
export type ElicitationSchema = z.infer<typeof ElicitationSchema>;

/** MCP `ElicitRequestFormParams`. */
export const ElicitRequestFormParams = lazySchema(() =>
  z.object({
    mode: z.literal("form").optional(),
    message: z.string().trim().min(1, "message must not be empty").max(MAX_TEXT_FIELD_CHARS),
    requestedSchema: ElicitationSchema,
  }),
);
export type ElicitRequestFormParams = z.infer<typeof ElicitRequestFormParams>;

/** MCP `ElicitResult`: the person accepted (with values), declined, or dismissed the form. */
export const ElicitResult = lazySchema(() =>
  z.discriminatedUnion(
    "action",
    [
      z.strictObject({
        action: z.literal("accept"),
        content: z.record(z.string(), ElicitValue, { error: "accept needs content: the submitted values" }),
      }),
      z.strictObject({ action: z.literal("decline") }),
      z.strictObject({ action: z.literal("cancel") }),
    ],
    { error: 'action must be "accept", "decline" or "cancel"' },
  ),
);
export type ElicitResult = z.infer<typeof ElicitResult>;

/** Longest URL a URL request may carry; browsers and servers start refusing not far above it. */
export const MAX_ELICIT_URL_CHARS = 2_048;

/**
 * MCP `ElicitRequestURLParams`: the person finishes on the server's own page (a sign-in, a payment),
 * so nothing they type there passes through Parley. Only http(s) pages: a `javascript:` or `data:`
 * link must never reach a card.
 */
export const ElicitRequestURLParams = lazySchema(() =>
  z.object({
    mode: z.literal("url"),
    message: z.string().trim().min(1, "message must not be empty").max(MAX_TEXT_FIELD_CHARS),
    url: z
      .string()
      .max(MAX_ELICIT_URL_CHARS, `url must be at most ${MAX_ELICIT_URL_CHARS} characters`)
      .pipe(z.url({ protocol: /^https?$/, error: "url must be an http or https address" })),
    elicitationId: z
      .string()
      .max(MAX_KEY_CHARS * 4)
      .optional(),
    /**
     * The MCP server that sent it, by the name and host the deployment configured: written by Parley,
     * never taken from the server, so the card can say who asks and warn when the page is elsewhere.
     * Absent for a page one of Parley's own tools asks for.
     */
    from: z
      .object({ server: z.string().max(MAX_KEY_CHARS), host: z.string().max(MAX_KEY_CHARS * 4) })
      .optional(),
  }),
);
export type ElicitRequestURLParams = z.infer<typeof ElicitRequestURLParams>;

/** Either mode of MCP `elicitation/create`; a request without `mode` is a form, as in the spec. */
export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestURLParams;

/** A URL request's result: accepting carries no values, which stay on the server's page. */
export const UrlElicitResult = lazySchema(() =>
  z.discriminatedUnion(
    "action",
    [
      z.strictObject(
        { action: z.literal("accept") },
        { error: "a URL request is accepted without content: the values stay on the server's page" },
      ),
      z.strictObject({ action: z.literal("decline") }),
      z.strictObject({ action: z.literal("cancel") }),
    ],
    { error: 'action must be "accept", "decline" or "cancel"' },
  ),
);
export type UrlElicitResult = z.infer<typeof UrlElicitResult>;
