import { describe, expect, it } from "vitest";
import { chatReceipt, type ReceiptFacts } from "../../../../src/interactions/kinds/chat-receipt";

const facts = (over: Partial<ReceiptFacts>): ReceiptFacts => ({
  kind: "approval",
  outcome: "approved",
  answeredBy: null,
  named: false,
  decidedBy: null,
  ...over,
});

describe("a card's receipt in chat", () => {
  it("names who decided and where", () => {
    expect(chatReceipt(facts({ answeredBy: "Ana · Telegram", named: true }))).toBe(
      "Approved by Ana · Telegram",
    );
    expect(chatReceipt(facts({ outcome: "denied", answeredBy: "operator", named: false }))).toBe("Denied");
  });

  it("says a deadline denied an approval, and that nobody answered any other kind", () => {
    const deadline = { kind: "deadline" } as const;
    expect(chatReceipt(facts({ outcome: "timed_out", decidedBy: deadline }))).toBe("Timed out — denied");
    expect(chatReceipt(facts({ kind: "question", outcome: "timed_out", decidedBy: deadline }))).toBe(
      "Timed out — no answer",
    );
    expect(chatReceipt(facts({ kind: "plan", outcome: "timed_out", decidedBy: null }))).toBe(
      "Timed out — no answer",
    );
  });

  it("says a deadline whose policy cancels cancelled the card", () => {
    expect(chatReceipt(facts({ outcome: "cancelled", decidedBy: { kind: "deadline" } }))).toBe(
      "Timed out — cancelled",
    );
  });

  it("says an agent's withdrawal withdrew it, whatever the outcome recorded", () => {
    expect(chatReceipt(facts({ outcome: "cancelled", decidedBy: { kind: "withdrawal" } }))).toBe("Withdrawn");
  });

  it("says a person's cancel plainly", () => {
    expect(chatReceipt(facts({ outcome: "cancelled", decidedBy: { kind: "person" } }))).toBe("Cancelled");
  });
});
