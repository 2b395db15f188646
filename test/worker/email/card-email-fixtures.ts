// Card emails in the Workers runtime: a person's verified address, a card whose ladder emails at its
// first rung, the card email an address was sent (its link, its Reply-To and who they answer as, as
// the binding was handed them), and a reply handed to the Worker's own Email Routing handler as raw MIME.
import { runDurableObjectAlarm } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import { CARD_LINK_PATH } from "../../../src/email/card-link";
import type { InboxObject } from "../../../src/inbox/inbox-object";
import worker from "../../../src/index";
import { checkPushAnswerToken } from "../../../src/tokens/push-answer-token";
import type { SentEmail } from "../../helpers/email-recorder";
import { runInDurableObject } from "../../helpers/run-in-object";
import { advanceClock, stubOf } from "../../helpers/session-object-probe";
import { deliverOutbox, inboxObject, type Person } from "../inbox/inbox-fixtures";
import { emailsTo, nextEmailTo, SENT_WITHIN } from "./sent-emails";

export type OutboxRow = {
  address: string;
  subject: string;
  text: string | null;
  link: string | null;
  status: string;
};
export type External = { sessionId: string; agentToken: string; token: string };

/** The emails `person`'s inbox stored, oldest first (a sent one keeps neither text nor link). */
export async function outbox(person: Person): Promise<OutboxRow[]> {
  return runInDurableObject<InboxObject, OutboxRow[]>(inboxObject(person.email), (_, state) =>
    state.storage.sql
      .exec<OutboxRow>(`SELECT address, subject, text, link, status FROM email_outbox ORDER BY id`)
      .toArray(),
  );
}

/** Adds `address` for `person` and verifies it with the code the inbox emailed there. */
export async function verifiedAddress(person: Person, address: string): Promise<void> {
  const before = (await emailsTo(address)).length;
  await person.api("POST", "/api/people/me/emails", { body: { address } });
  const code = /Your code: (\d{6})/.exec((await nextEmailTo(address, before)).text)?.[1];
  const verified = await person.api("POST", "/api/people/me/emails/verify", { body: { address, code } });
  expect(verified.status).toBe(200);
}

/**
 * Opens an approval of `command` in a new session of `person` whose ladder emails `to` at its
 * first rung (two minutes), and climbs that rung.
 */
export async function escalatedCard(
  person: Person,
  to: "me" | "approvers",
  command: string,
): Promise<{ session: External; interactionId: string }> {
  const created = await person.api("POST", "/api/sessions", {
    body: {
      agent: { kind: "external", name: "Claude Code" },
      deadlinePolicies: { default: { escalate: [{ afterMs: 120_000, notify: ["email"], to }] } },
    },
  });
  const session = (await created.json()) as External;
  const opened = await person.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
    token: session.agentToken,
    body: { kind: "approval", timeoutMs: 600_000, request: { toolName: "Bash", input: { command } } },
  });
  expect(opened.status, await opened.clone().text()).toBe(201);
  const { interactionId } = (await opened.json()) as { interactionId: string };
  await advanceClock(stubOf(session), { by: 120_000 });
  await runDurableObjectAlarm(stubOf(session));
  await deliverOutbox(session);
  return { session, interactionId };
}

/** A card's email as the binding was handed it, with the card its link answers (signed, checked here). */
export interface EmailedCard {
  email: SentEmail;
  /** The link in its text. */
  link: string;
  /** Where a reply to it goes. */
  replyTo: string;
  sessionId: string;
  interactionId: string;
  /** Who its link and a reply answer as. */
  person: string;
  /** The email's one answer, spent by its link or a reply. */
  replyToken: string;
}

/** The last card email sent to `address` (waiting for the first, which is sent after its step). */
export async function emailedCard(address: string): Promise<EmailedCard> {
  const cards = async () =>
    (await emailsTo(address)).filter((email) => email.text.includes("Open the card: "));
  await expect.poll(async () => (await cards()).length, SENT_WITHIN).toBeGreaterThan(0);
  const email = (await cards()).at(-1) as SentEmail;
  const link = /Open the card: (\S+)/.exec(email.text)?.[1] ?? "";
  const token = link.slice(link.indexOf(CARD_LINK_PATH) + CARD_LINK_PATH.length);
  const checked = await checkPushAnswerToken(env.SESSION_SECRET ?? "", token, 0);
  if (!checked.ok) throw new Error(`the link in the email to ${address} is not signed by the deployment`);
  const { sessionId, interactionId, person, nonce } = checked.claims;
  return { email, link, replyTo: email.replyTo ?? "", sessionId, interactionId, person, replyToken: nonce };
}

/** Approve or Deny through an email's link, as its page's form posts it. */
export function postLink(url: string, decision: "approve" | "deny"): Promise<Response> {
  return exports.default.fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `decision=${decision}`,
  });
}

/** The card's state as its session tells its owner. */
export async function cardState(person: Person, session: External, interactionId: string) {
  const response = await person.api(
    "GET",
    `/api/sessions/${session.sessionId}/interactions/${interactionId}`,
    { token: session.token },
  );
  return (await response.json()) as { status: string; resolution?: { outcome?: string } };
}

/** A plain-text reply as a mail client writes it: `text`, then the quoted email. */
export function replyMime(options: { from: string; to: string; text: string; headerFrom?: string }): string {
  return [
    `From: ${options.headerFrom ?? options.from}`,
    `To: ${options.to}`,
    "Subject: Re: Still waiting",
    `Message-ID: <${crypto.randomUUID()}@mail.example>`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: 7bit",
    "",
    options.text,
    "",
    "On Tue, someone wrote:",
    "> Your agent is still waiting for you.",
    "> approve",
    "",
  ].join("\r\n");
}

/**
 * Hands a raw message to the Worker's `email` handler as Email Routing does (envelope `from` and
 * `to`, the raw bytes); the reason it was refused with, or null when it was accepted.
 */
export async function deliverEmail(from: string, to: string, raw: string): Promise<string | null> {
  const bytes = new TextEncoder().encode(raw);
  let rejected: string | null = null;
  const message: ForwardableEmailMessage = {
    from,
    to,
    raw: new Response(bytes).body as ReadableStream<Uint8Array>,
    rawSize: bytes.byteLength,
    headers: new Headers(),
    canBeForwarded: false,
    setReject(reason: string) {
      rejected = reason;
    },
    forward: () => Promise.reject(new Error("a reply to a card is never forwarded")),
    reply: () => Promise.reject(new Error("a reply to a card is never answered by email")),
  };
  await worker.email?.(message, env);
  return rejected;
}
