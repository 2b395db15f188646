// A card email's answer, by its link or by a reply: the token is claimed once in the inbox of the
// card's person, the person the email went to answers (the creator, or an approver as themselves),
// and a refusal by the session gives the token back, so a refused answer changes nothing.
import { answerableFromNotification } from "../notify/push-actions";
import type { SessionCommand } from "../protocol/wire/commands";
import type { ErrorBody } from "../protocol/wire/errors";
import { inboxStub } from "../session/inbox-report/inbox-rpc";
import { sessionStub } from "../session/session-rpc";
import type { PushDecision } from "../tokens/push-answer-token";
import { cardAnswerer } from "./card-answerer";
import { sessionOfReplyToken } from "./reply-token";

export type EmailAnswerOutcome =
  | { ok: true; sessionId: string; interactionId: string }
  | { ok: false; error: ErrorBody };

const UNKNOWN: ErrorBody = {
  code: "forbidden",
  message: "Unknown email answer: reply to the card's own email",
};

/** Answers the card `token` stands for with `decision`; `from`, a reply's sender (null for the link). */
export async function answerByEmail(
  env: Env,
  token: string,
  from: string | null,
  decision: PushDecision,
): Promise<EmailAnswerOutcome> {
  const sessionId = sessionOfReplyToken(token);
  const person = sessionId ? await sessionStub(env, sessionId).creator() : null;
  if (!sessionId || !person) return { ok: false, error: UNKNOWN };
  const inbox = inboxStub(env, person);
  const claimed = await inbox.emailAddresses({ type: "claim_answer", token, from });
  if (!claimed.ok) return claimed;
  if (!("answer" in claimed)) return { ok: false, error: UNKNOWN };
  const { answer } = claimed;
  const refuse = async (error: ErrorBody): Promise<EmailAnswerOutcome> => {
    await inbox.emailAddresses({ type: "release_answer", token });
    return { ok: false, error };
  };
  const answerer = await cardAnswerer(env, answer, person);
  if (!answerer.ok) return refuse(answerer.error);
  const { card, actor } = answerer;
  if (!card) return refuse({ code: "already_resolved", message: "This card was already resolved" });
  // As a notification's: a plain approve or deny of a call shown whole, never a high-risk one. A
  // card that counts several people's approvals is answered here too (each email is one person's).
  if (!answerableFromNotification({ kind: card.kind, request: card.request })) {
    return refuse({ code: "forbidden", message: "This card is answered on its page, not from an email" });
  }
  const command = { type: "respond", interactionId: answer.interactionId, response: { decision } };
  const outcome = await sessionStub(env, answer.sessionId).fromInbox(actor, {
    type: "command",
    command: command as SessionCommand,
  });
  if (!outcome.ok) return refuse(outcome.error);
  return { ok: true, sessionId: answer.sessionId, interactionId: answer.interactionId };
}
