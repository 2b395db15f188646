// Who answers through a card's email (its link or a reply to it): the person the email went to.
// That is the session's creator, who answers as they would from a notification, or an approver
// they invited, who answers as that approver — checked with the inviter's inbox at the moment of
// answering, so a removed approver, or a card outside their scope, answers nothing.

import type { InboxActor } from "../objects/contracts/session-inbox";
import type { InboxCard } from "../protocol/inbox/inbox";
import type { ErrorBody } from "../protocol/wire/errors";
import { inboxStub } from "../session/inbox-report/inbox-rpc";
import { sessionStub } from "../session/session-rpc";

/** The card an email answers and the person it went to (`person`: the creator's or an approver's id). */
export interface EmailedCard {
  sessionId: string;
  interactionId: string;
  person: string;
}

/** Who answers, and the card as they may see it now (null when the creator's card is no longer open). */
export type CardAnswerer =
  | { ok: true; actor: Extract<InboxActor, { kind: "push" | "approver" }>; card: InboxCard | null }
  | { ok: false; error: ErrorBody };

const REMOVED: ErrorBody = {
  code: "forbidden",
  message: "You are no longer an approver of the person whose card this is",
};

const NOT_OPEN: ErrorBody = { code: "not_found", message: "No open card of this person you may answer" };

/** Whom an answer through `emailed` counts as, asked of the session and its person's inbox. */
export async function cardAnswerer(
  env: Env,
  emailed: EmailedCard,
  /** The session's creator, when the caller asked already. */
  creator?: string,
): Promise<CardAnswerer> {
  const inviter = creator ?? (await sessionStub(env, emailed.sessionId).creator());
  if (inviter === null) return { ok: false, error: { code: "not_found", message: "No such session" } };
  const inbox = inboxStub(env, inviter);
  const match = (card: InboxCard) =>
    card.sessionId === emailed.sessionId && card.interactionId === emailed.interactionId;
  if (inviter === emailed.person) {
    const view = await inbox.view(inviter);
    return { ok: true, actor: { kind: "push", person: inviter }, card: view.cards.find(match) ?? null };
  }
  // The people list holds live approvers only: a removed one is found nowhere.
  const approver = (await inbox.people()).approvers.find((one) => one.personId === emailed.person);
  const view = approver ? await inbox.answering(inviter, approver.approverId) : null;
  if (!approver || !view) return { ok: false, error: REMOVED };
  const card = view.cards.find(match);
  // A card outside the approver's scope is as unknown to them as a resolved one.
  if (!card) return { ok: false, error: NOT_OPEN };
  const { personId, name } = view.approver;
  return {
    ok: true,
    actor: { kind: "approver", person: inviter, approverId: approver.approverId, personId, name },
    card,
  };
}
