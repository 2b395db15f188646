// A person's email addresses (docs/guide-approvers.md#escalation-and-email): the bodies of
// `/api/people/me/emails`, and what the person's inbox answers about them.
import * as z from "zod";
import { lazySchema } from "../lazy-schema";
import type { ErrorBody } from "../wire/errors";

const Address = lazySchema(() =>
  z
    .email("must be an email address")
    .max(254, "must be at most 254 characters")
    .transform((address) => address.toLowerCase()),
);

/** `POST /api/people/me/emails`: send a code to this address. */
export const AddEmailBody = lazySchema(() => z.strictObject({ address: Address }));

/** `POST /api/people/me/emails/verify`: the code that came to the address. */
export const VerifyEmailBody = lazySchema(() =>
  z.strictObject({
    address: Address,
    code: z.string().regex(/^\d{6}$/, "must be the six digits the email holds"),
  }),
);

/** `DELETE /api/people/me/emails`: stop sending to this address. */
export const RemoveEmailBody = lazySchema(() => z.strictObject({ address: Address }));

/** An address as the person sees it. */
export interface EmailAddressView {
  address: string;
  verified: boolean;
  createdAt: number;
  verifiedAt: number | null;
}

/** An email the inbox sent or is sending, as the person sees it: never its text. */
export interface EmailDeliveryView {
  id: number;
  address: string;
  subject: string;
  purpose: "verification" | "escalation";
  status: "pending" | "sent" | "failed";
  attempts: number;
  createdAt: number;
  error: string | null;
}

/** The card a card email's one answer is for, and whom it answers as (the creator or an approver). */
export interface EmailAnswerClaim {
  sessionId: string;
  interactionId: string;
  person: string;
}

/**
 * What the routes ask of a person's inbox about email. A card email's answer is claimed before the
 * session answers (by its link, `from: null`, or by a reply from `from`) and released if it refuses.
 */
export type EmailAction =
  | { type: "request_code"; person: string; address: string; origin: string }
  | { type: "verify"; address: string; code: string }
  | { type: "list" }
  | { type: "remove"; address: string }
  | { type: "claim_answer"; token: string; from: string | null }
  | { type: "release_answer"; token: string };

export type EmailOutcome =
  | { ok: true; addresses: EmailAddressView[]; sent: EmailDeliveryView[] }
  | { ok: true; answer: EmailAnswerClaim }
  | { ok: false; error: ErrorBody };
