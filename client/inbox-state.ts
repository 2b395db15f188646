// The inbox as a device holds it: the view from `hello`, moved forward by each inbox event. Pure,
// so the page, a terminal and tests fold events the same way; events at or below `lastSeq` are skipped.
import type { InboxEvent, InboxSession, InboxView } from "../src/protocol/index";

function withOpenCards(view: InboxView, sessionId: string, delta: number): InboxSession[] {
  return view.sessions.map((session) =>
    session.sessionId === sessionId
      ? { ...session, openCards: Math.max(0, session.openCards + delta) }
      : session,
  );
}

/** The view after `event`; never mutates `view`. */
export function applyInboxEvent(view: InboxView, event: InboxEvent): InboxView {
  if (event.seq <= view.lastSeq) return view;
  const next: InboxView = { ...view, lastSeq: event.seq };
  const { change, sessionId } = event;
  switch (change.type) {
    case "card_opened": {
      const known = view.cards.find(
        (card) => card.sessionId === sessionId && card.interactionId === change.card.interactionId,
      );
      // A card reported again is an upsert ("more time" moved its deadline): it takes the new one.
      if (known) {
        const card = { ...known, ...change.card, sessionId };
        next.cards = view.cards.map((other) => (other === known ? card : other));
        next.cards.sort((x, y) => x.expiresAt - y.expiresAt);
        return next;
      }
      next.cards = [...view.cards, { ...change.card, sessionId }].sort((a, b) => a.expiresAt - b.expiresAt);
      next.sessions = withOpenCards(view, sessionId, 1);
      return next;
    }
    case "card_changed":
    case "card_escalated": {
      // Its terms changed ("more time", an approval counted) or a rung of its ladder ran: the copy
      // takes the card as it stands; a card this view does not hold stays out.
      next.cards = view.cards.map((card) =>
        card.sessionId === sessionId && card.interactionId === change.card.interactionId
          ? { ...card, ...change.card, sessionId }
          : card,
      );
      next.cards.sort((x, y) => x.expiresAt - y.expiresAt);
      return next;
    }
    case "card_resolved": {
      const cards = view.cards.filter(
        (card) => !(card.sessionId === sessionId && card.interactionId === change.interactionId),
      );
      if (cards.length === view.cards.length) return next;
      next.cards = cards;
      next.sessions = withOpenCards(view, sessionId, -1);
      return next;
    }
    case "session_updated": {
      const openCards = view.cards.filter((card) => card.sessionId === sessionId).length;
      const others = view.sessions.filter((session) => session.sessionId !== sessionId);
      next.sessions = [...others, { ...change.session, sessionId, openCards }].sort(
        (a, b) => b.lastActivity - a.lastActivity || a.sessionId.localeCompare(b.sessionId),
      );
      return next;
    }
    case "session_removed":
      next.sessions = view.sessions.filter((session) => session.sessionId !== sessionId);
      next.cards = view.cards.filter((card) => card.sessionId !== sessionId);
      return next;
  }
}

/** How many cards wait for an answer: the number the tab title shows. */
export function waitingCount(view: InboxView): number {
  return view.cards.length;
}
