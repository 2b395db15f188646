// Each kind words its own receipt (sent with the resolution, so the page, the terminal and
// notifications say the same); a kind without words, or a response it cannot read, says the outcome.
import { describe, expect, it } from "vitest";
import { BUILTIN_INTERACTIONS } from "../../../src/interactions/kinds";
import { createInteractionRegistry } from "../../../src/interactions/registry";

const kinds = createInteractionRegistry(BUILTIN_INTERACTIONS);

describe("receipts in the kinds' own words", () => {
  it("says an approval was always allowed, ran with edited arguments, or why it was denied", () => {
    expect(kinds.receipt("approval", "approved", { decision: "approve", remember: false })).toBe("Approved");
    expect(kinds.receipt("approval", "approved", { decision: "approve", remember: true })).toBe(
      "Approved · always allowed this session",
    );
    const edited = { decision: "approve", remember: false, updatedInput: { command: "ls" } };
    expect(kinds.receipt("approval", "approved", edited)).toBe("Approved · with edited arguments");
    expect(kinds.receipt("approval", "denied", { decision: "deny", reason: "too risky" })).toBe(
      "Denied: “too risky”",
    );
    expect(kinds.receipt("approval", "denied", { decision: "deny", reason: "no", stop: true })).toBe(
      "Denied: “no” · turn stopped",
    );
  });

  it("names the plan choice and quotes the feedback to keep planning", () => {
    expect(kinds.receipt("plan", "approved", { choice: "accept_edits" })).toBe(
      "Plan approved · edits run without asking",
    );
    expect(kinds.receipt("plan", "approved", { choice: "review_each" })).toBe(
      "Plan approved · each action is reviewed",
    );
    expect(kinds.receipt("plan", "denied", { choice: "keep_planning", feedback: "add tests" })).toBe(
      "Keep planning: “add tests”",
    );
  });

  it("tells an answer in chat from answers picked on the card", () => {
    expect(kinds.receipt("question", "answered", { answers: {}, selections: {}, chatReply: "hi" })).toBe(
      "Answered in chat",
    );
    expect(kinds.receipt("question", "answered", { answers: { "Which?": "A" }, selections: {} })).toBe(
      "Answered",
    );
  });

  it("words each way a form or a page can end, a turn cancel apart from the person's dismissal", () => {
    expect(kinds.receipt("form", "answered", { action: "accept", content: {} })).toBe("Accepted");
    expect(kinds.receipt("form", "denied", { action: "decline" })).toBe("Declined");
    expect(kinds.receipt("form", "cancelled", { action: "cancel" })).toBe("Dismissed");
    expect(kinds.receipt("form", "cancelled", null)).toBe("Cancelled");
    expect(kinds.receipt("url", "answered", { action: "accept" })).toBe("Finished on the page");
    expect(kinds.receipt("url", "denied", { action: "decline" })).toBe("Declined");
  });

  it("says the plain outcome for a timeout, an unknown kind or a response it cannot read", () => {
    expect(kinds.receipt("approval", "timed_out", null)).toBe("Timed out");
    expect(kinds.receipt("plan", "cancelled", null)).toBe("Cancelled");
    expect(kinds.receipt("rating", "answered", { stars: 4 })).toBe("Answered");
    expect(kinds.receipt("plan", "approved", { choice: "somewhere else" })).toBe("Approved");
  });
});
