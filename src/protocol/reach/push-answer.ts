// `POST /api/push/answer`: what a notification's Approve or Deny sends, and what it is told back.
import * as z from "zod";
import { lazySchema } from "../lazy-schema";

export const PushAnswerBody = lazySchema(() =>
  z.strictObject({
    /** The answer token the push carried (src/tokens/push-answer-token.ts). */
    token: z.string().min(1).max(2_000),
    decision: z.enum(["approve", "deny"]),
  }),
);
export type PushAnswerBody = z.infer<typeof PushAnswerBody>;

export const PushAnswerResponse = lazySchema(() =>
  z.object({
    ok: z.literal(true),
    outcome: z.enum(["approved", "denied"]),
    sessionId: z.string(),
    interactionId: z.string(),
  }),
);
export type PushAnswerResponse = z.infer<typeof PushAnswerResponse>;
