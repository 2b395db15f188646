// A toy interaction kind, the walkthrough in docs/interactive-tools.md: the model asks the person
// to rate something from 1 to 5 stars. It lives in the tests so the guide is checked, not shipped.
import * as z from "zod";
import { defineInteraction } from "../../../../src/interactions/define-interaction";
import { describeDuration } from "../../../../src/interactions/describe-duration";
import { describeZodError } from "../../../../src/protocol/wire/errors";

export const RatingRequest = z.object({
  subject: z.string().trim().min(1).max(200).describe("What the user should rate, e.g. 'this summary'."),
});
export type RatingRequest = z.infer<typeof RatingRequest>;

export const RatingResponse = z.strictObject({
  stars: z.number().int().min(1, "give 1 to 5 stars").max(5, "give 1 to 5 stars"),
});
export type RatingResponse = z.infer<typeof RatingResponse>;

export const ratingInteraction = defineInteraction<RatingRequest, RatingResponse>({
  kind: "rating",
  toolName: "AskUserRating",
  description: "Ask the user to rate something from 1 to 5 stars and wait for the rating.",
  summary: ({ subject }) => ({
    title: "The agent asks for a rating",
    line: `Rate ${subject} from 1 to 5 stars`,
  }),
  request: RatingRequest,
  parseResponse(_request, raw) {
    const parsed = RatingResponse.safeParse(raw);
    return parsed.success
      ? { ok: true, response: parsed.data }
      : { ok: false, message: describeZodError(parsed.error) };
  },
  outcome: () => "answered",
  receipt: (_outcome, response) => (response ? `Rated ${"★".repeat(response.stars)}` : null),
  toResult: (request, response) => ({
    content: `User rated ${request.subject} ${response.stars}/5.`,
    isError: false,
  }),
  onTimeout: (_request, { timeoutMs }) => ({
    content: `User did not rate it within ${describeDuration(timeoutMs)}`,
    isError: true,
  }),
});
