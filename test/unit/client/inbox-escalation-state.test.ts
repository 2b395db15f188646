import { describe, expect, it } from "vitest";
import { applyInboxEvent } from "../../../client/inbox-state";
import type { InboxEvent, InboxView } from "../../../src/protocol/index";

const S1 = "c".repeat(32);
const LADDER = [
  { afterMs: 120_000, notify: ["push" as const], to: "me" as const },
  { afterMs: 300_000, notify: ["email" as const], to: "approvers" as const },
];

function card(interactionId: string, escalated: number) {
  return {
    interactionId,
    toolCallId: interactionId,
    kind: "approval",
    toolName: "Bash",
    request: {},
    createdAt: 0,
    expiresAt: 600_000,
    deadlinePolicy: {
      onDeadline: "deny" as const,
      maxExpiresAt: 600_000,
      extendByMs: 60_000,
      escalate: LADDER,
      escalated,
    },
  };
}

const empty: InboxView = { person: "ana@example.com", lastSeq: 0, sessions: [], cards: [] };

describe("an escalated card in the inbox a device holds", () => {
  it("moves up its ladder with each rung, and a rung for a card no longer shown adds none", () => {
    const events: InboxEvent[] = [
      { seq: 1, at: 1, sessionId: S1, change: { type: "card_opened", card: card("toolu_a", 0) } },
      {
        seq: 2,
        at: 2,
        sessionId: S1,
        change: { type: "card_escalated", card: card("toolu_a", 1), rung: { ...LADDER[0]!, rung: 0, of: 2 } },
      },
      {
        seq: 3,
        at: 3,
        sessionId: S1,
        change: {
          type: "card_escalated",
          card: card("toolu_gone", 1),
          rung: { ...LADDER[0]!, rung: 0, of: 2 },
        },
      },
    ];
    const view = events.reduce(applyInboxEvent, empty);
    expect(view.cards.map((shown) => [shown.interactionId, shown.deadlinePolicy?.escalated])).toEqual([
      ["toolu_a", 1],
    ]);
    expect(view.lastSeq).toBe(3);
  });
});
