// Which approvals a notification may answer by itself: one answer decides it and Parley assessed it
// as low or medium. A high call, a two-person card, another kind, or a card with no assessment
// opens the card instead.
import { describe, expect, it } from "vitest";
import { answerableFromNotification } from "../../../src/notify/push-actions";

const request = (level?: unknown) => ({
  toolName: "Bash",
  input: { command: "ls" },
  ...(level === undefined ? {} : { assessment: { level, summary: "Lists files", effects: [] } }),
});

describe("an approval's notification", () => {
  it.each([
    ["low", true],
    ["medium", true],
    ["high", false],
    ["critical", false],
    [null, false],
  ])("with a %s assessment may carry Approve and Deny: %s", (level, expected) => {
    expect(answerableFromNotification({ kind: "approval", request: request(level) })).toBe(expected);
  });

  it("of a card Parley has not assessed opens the card", () => {
    expect(answerableFromNotification({ kind: "approval", request: request() })).toBe(false);
  });

  it("of a card that needs a second person opens the card, however low its call", () => {
    const approvals = { needed: 2, given: 0, by: [] };
    expect(answerableFromNotification({ kind: "approval", request: request("low"), approvals })).toBe(false);
  });

  it("of a card of another kind opens the card", () => {
    expect(answerableFromNotification({ kind: "question", request: request("low") })).toBe(false);
  });

  it("reads an assessment carried beside the request too", () => {
    const card = { kind: "approval", request: request(), assessment: { level: "low" } };
    expect(answerableFromNotification(card)).toBe(true);
  });
});
