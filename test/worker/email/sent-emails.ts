// What the inbox runtime's `EMAIL` binding was handed (test/helpers/email-recorder.ts), read back
// from the recorded network edge: each address a test emails is its own.
import { expect } from "vitest";
import { EMAIL_HOST, type SentEmail } from "../../helpers/email-recorder";
import { scriptAnswers, sentTo } from "../notify/notify-fixtures";

/** How long a test waits for an email sent after its step: a busy machine stretches the hop to the edge. */
export const SENT_WITHIN = { timeout: 5_000 };

/** Every email the binding was handed for `address`, oldest first, refused ones too. */
export async function emailsTo(address: string): Promise<SentEmail[]> {
  return (await sentTo(EMAIL_HOST))
    .map((request) => JSON.parse(new TextDecoder().decode(request.body)) as SentEmail)
    .filter((email) => email.to === address);
}

/** The email sent to `address` once `before` had gone there: waits for it, as it is sent after its step. */
export async function nextEmailTo(address: string, before: number): Promise<SentEmail> {
  await expect.poll(async () => (await emailsTo(address)).length, SENT_WITHIN).toBeGreaterThan(before);
  return (await emailsTo(address))[before] as SentEmail;
}

/** Makes the binding refuse the next sends to `address`, one per status (500: the service failed). */
export async function failNextEmails(address: string, statuses: number[]): Promise<void> {
  await scriptAnswers(EMAIL_HOST, statuses, JSON.stringify(address));
}
