// The `form` kind: MCP elicitation in form mode. The model opens one with RequestUserInput, or a tool
// does mid-run with `ctx.elicit`; a person accepts with values, declines, or lets it lapse.
import * as z from "zod";
import { ElicitRequestFormParams, type ElicitResult } from "../../protocol/forms/elicitation";
import { checkContent, describeFields } from "../../protocol/forms/form-content";
import { MAX_FORM_FIELDS, STRING_FORMATS } from "../../protocol/forms/form-fields";
import { lazySchema } from "../../protocol/lazy-schema";
import { describeZodError } from "../../protocol/wire/errors";
import { defineInteraction } from "../define-interaction";
import { describeDuration } from "../describe-duration";
import { elicitationReceipt } from "../elicitation-kinds";

/** What a device sends: the ElicitResult envelope, values checked field by field afterwards. */
const RawElicitResult = lazySchema(() =>
  z.discriminatedUnion(
    "action",
    [
      z.strictObject({
        action: z.literal("accept"),
        content: z.record(z.string(), z.unknown(), { error: "accept needs content: the submitted values" }),
      }),
      z.strictObject({ action: z.literal("decline") }),
      z.strictObject({ action: z.literal("cancel") }),
    ],
    { error: 'action must be "accept", "decline" or "cancel"' },
  ),
);

/** Submitted values as the model reads them: compact JSON, so types and lists stay unambiguous. */
function describeContent(content: Record<string, unknown>): string {
  return Object.keys(content).length === 0 ? "no values (every field was optional)" : JSON.stringify(content);
}

/** A person's form, opened by the model or by a tool, answered with an MCP ElicitResult. */
export const formInteraction = defineInteraction<ElicitRequestFormParams, ElicitResult>({
  kind: "form",
  toolName: "RequestUserInput",
  description: [
    "Ask the user to fill in a short form and wait for their reply.",
    "Use it when you need a few specific values only the user can give (contact details, dates, amounts,",
    "choices among fixed options) in one step instead of a series of questions.",
    "`message` says what you need and why. `requestedSchema` is a flat JSON Schema object whose properties are each",
    `a string (optional minLength, maxLength, format: ${STRING_FORMATS.join(", ")}), a number or integer`,
    "(optional minimum, maximum), a boolean, a single choice (a string with `enum`, or `oneOf` of { const, title }),",
    "or a multiple choice (an array whose `items` has `enum`, or `anyOf` of { const, title }; optional minItems, maxItems).",
    "Give each property a title, a description where it helps and a default where you can guess; list mandatory",
    `properties in \`required\`. At most ${MAX_FORM_FIELDS} properties; nested objects, arrays of objects and $ref are not supported.`,
    "The user may accept and submit values, decline, or not answer in time; the result says which, with the values.",
    "For one multiple-choice question use AskUserQuestion instead. Never ask for passwords, API keys or other secrets.",
  ].join(" "),
  request: ElicitRequestFormParams,
  parseResponse(request, raw) {
    const parsed = RawElicitResult.safeParse(raw);
    if (!parsed.success) return { ok: false, message: describeZodError(parsed.error) };
    if (parsed.data.action !== "accept") return { ok: true, response: parsed.data };
    const checked = checkContent(request.requestedSchema, parsed.data.content);
    if (!checked.ok) return { ok: false, message: describeFields(checked.fields), fields: checked.fields };
    return { ok: true, response: { action: "accept", content: checked.content } };
  },
  outcome: (_request, response) =>
    response.action === "accept" ? "answered" : response.action === "decline" ? "denied" : "cancelled",
  receipt: (outcome, response) => elicitationReceipt(outcome, response, "Accepted"),
  toResult(_request, response) {
    if (response.action === "accept")
      return {
        content: `User accepted the form and submitted: ${describeContent(response.content)}`,
        isError: false,
      };
    if (response.action === "decline")
      return { content: "User declined the form and provided no information.", isError: false };
    return { content: "User dismissed the form without answering.", isError: false };
  },
  onTimeout: (_request, { timeoutMs }) => ({
    content: `User did not respond to the form within ${describeDuration(timeoutMs)}`,
    isError: true,
  }),
  onCancel: () => ({ content: "User cancelled the turn before answering the form", isError: true }),
});
