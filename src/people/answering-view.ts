// What an invited approver sees of the inviter's inbox: only the open cards within their scope,
// and only the sessions those cards are in (title and agent), never the rest of the inbox.
import type { InboxCard, InboxView } from "../protocol/inbox/inbox";
import { inScope } from "./approver-scope";
import type { ApproverView } from "./people-terms";

/** The inviter's cards an approver answers, as their page and socket show them ("for Ana"). */
export interface AnsweringView {
  /** The person whose cards these are. */
  inviter: string;
  /** Who the approver is here: their person id, name and scope. */
  approver: Pick<ApproverView, "personId" | "name" | "scope">;
  sessions: { sessionId: string; title: string | null; agent: string }[];
  cards: InboxCard[];
}

export function answeringView(inviter: string, approver: ApproverView, view: InboxView): AnsweringView {
  const agents = new Map(view.sessions.map((session) => [session.sessionId, session]));
  const cards = view.cards.filter((card) =>
    inScope(approver.scope, { ...card, agent: agents.get(card.sessionId)?.agent ?? null }),
  );
  const shown = new Set(cards.map((card) => card.sessionId));
  return {
    inviter,
    approver: { personId: approver.personId, name: approver.name, scope: approver.scope },
    sessions: view.sessions
      .filter((session) => shown.has(session.sessionId))
      .map(({ sessionId, title, agent }) => ({ sessionId, title, agent })),
    cards,
  };
}
