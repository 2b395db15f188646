import { describe, expect, it } from "vitest";
import { applyInboxEvent, waitingCount } from "../../../client/inbox-state";
import type { InboxEvent, InboxView } from "../../../src/protocol/index";

const S1 = "a".repeat(32);
const S2 = "b".repeat(32);

const empty: InboxView = { person: "ana@example.com", lastSeq: 0, sessions: [], cards: [] };

function card(interactionId: string, expiresAt: number) {
  return {
    interactionId,
    toolCallId: interactionId,
    kind: "question",
    toolName: "AskUserQuestion",
    request: {},
    createdAt: 0,
    expiresAt,
  };
}

const summary = (title: string, lastActivity: number) => ({
  status: "awaiting_input" as const,
  title,
  agent: "Parley",
  createdAt: 0,
  lastActivity,
});

const events: InboxEvent[] = [
  { seq: 1, at: 1, sessionId: S1, change: { type: "session_updated", session: summary("Deploy", 1) } },
  { seq: 2, at: 2, sessionId: S2, change: { type: "session_updated", session: summary("Docs", 2) } },
  { seq: 3, at: 3, sessionId: S1, change: { type: "card_opened", card: card("toolu_late", 900) } },
  { seq: 4, at: 4, sessionId: S2, change: { type: "card_opened", card: card("toolu_soon", 100) } },
];

const fold = (view: InboxView, list: InboxEvent[]) => list.reduce(applyInboxEvent, view);

describe("the inbox a device holds", () => {
  it("lists open cards oldest deadline first, sessions by latest activity, and counts what waits", () => {
    const view = fold(empty, events);
    expect(view.cards.map((c) => c.interactionId)).toEqual(["toolu_soon", "toolu_late"]);
    expect(view.sessions.map((s) => [s.title, s.openCards])).toEqual([
      ["Docs", 1],
      ["Deploy", 1],
    ]);
    expect(waitingCount(view)).toBe(2);
    expect(view.lastSeq).toBe(4);
  });

  it("drops a resolved card and a removed session, and ignores an event it already applied", () => {
    const view = fold(empty, events);
    const resolved: InboxEvent = {
      seq: 5,
      at: 5,
      sessionId: S1,
      change: {
        type: "card_resolved",
        interactionId: "toolu_late",
        outcome: "answered",
        resolvedBy: "inbox",
        answeredBy: "ana@example.com",
        resolvedAt: 5,
      },
    };
    const after = fold(view, [resolved, resolved]);
    expect(after.cards.map((c) => c.interactionId)).toEqual(["toolu_soon"]);
    expect(after.sessions.find((s) => s.sessionId === S1)?.openCards).toBe(0);
    expect(fold(view, [events[2]!])).toBe(view);

    const removed = applyInboxEvent(after, {
      seq: 6,
      at: 6,
      sessionId: S2,
      change: { type: "session_removed" },
    });
    expect(removed.sessions.map((s) => s.sessionId)).toEqual([S1]);
    expect(waitingCount(removed)).toBe(0);
  });

  it("gives a card reported again its new deadline, in order, without counting it twice", () => {
    const view = fold(empty, events);
    const extended = applyInboxEvent(view, {
      seq: 5,
      at: 5,
      sessionId: S2,
      change: { type: "card_opened", card: card("toolu_soon", 1_500) },
    });
    expect(extended.cards.map((c) => [c.interactionId, c.expiresAt])).toEqual([
      ["toolu_late", 900],
      ["toolu_soon", 1_500],
    ]);
    expect(extended.sessions.find((s) => s.sessionId === S2)?.openCards).toBe(1);
    expect(waitingCount(extended)).toBe(2);
  });

  it("moves a changed card to its new deadline, and opens no card it does not hold", () => {
    const view = fold(empty, events);
    const changed = fold(view, [
      { seq: 5, at: 5, sessionId: S2, change: { type: "card_changed", card: card("toolu_soon", 1_500) } },
      { seq: 6, at: 6, sessionId: S1, change: { type: "card_changed", card: card("toolu_gone", 50) } },
    ]);
    expect(changed.cards.map((c) => [c.interactionId, c.expiresAt])).toEqual([
      ["toolu_late", 900],
      ["toolu_soon", 1_500],
    ]);
    expect(changed.sessions.map((s) => [s.sessionId, s.openCards])).toEqual(
      view.sessions.map((s) => [s.sessionId, s.openCards]),
    );
    expect(changed.lastSeq).toBe(6);
  });
});
