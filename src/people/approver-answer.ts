// What an invited approver may answer: one card, once. An approval is approved or denied as asked —
// never "Always allow", a grant, edited input or a denial that stops the agent's turn, which stay
// the inviter's; other kinds are answered as an `answer` link would answer them.
import * as z from "zod";
import { PERMISSION_GATE_KIND } from "../interactions/kinds/names";

const OneCallAnswer = z.discriminatedUnion("decision", [
  // `false` states what is not asked for (the page sends `remember: false` with a plain approval).
  z.strictObject({ decision: z.literal("approve"), remember: z.literal(false).optional() }),
  z.strictObject({
    decision: z.literal("deny"),
    reason: z.string().max(2000).optional(),
    stop: z.literal(false).optional(),
    remember: z.literal(false).optional(),
  }),
]);

/** Why an approver may not give `response` to a card of `kind`; null when they may. */
export function approverAnswerRefusal(kind: string, response: unknown): string | null {
  if (kind !== PERMISSION_GATE_KIND) return null;
  if (OneCallAnswer.safeParse(response).success) return null;
  return 'An invited approver approves or denies this one call: { "decision": "approve" } or { "decision": "deny", "reason"? } (no grant, "always", edit or stop)';
}
