// A chat button's code means only what the card itself offers: codes it does not offer send nothing.
import { describe, expect, it } from "vitest";
import { choicesOf, commandFor } from "../../../src/channels/card-choices";
import { readChoiceValue } from "../../../src/channels/card-message";
import type { InboxCard } from "../../../src/protocol";

const base = {
  sessionId: "0".repeat(32),
  interactionId: "toolu_x",
  toolCallId: "toolu_x",
  toolName: "t",
  createdAt: 0,
  expiresAt: 1_000,
} satisfies Partial<InboxCard>;

const question: InboxCard = {
  ...base,
  kind: "question",
  request: {
    questions: [
      { question: "Which?", header: "H", multiSelect: false, options: [{ label: "A" }, { label: "B" }] },
    ],
  },
};

describe("card choices", () => {
  it("turns an option's code into the answer naming that option, and refuses one past the last", () => {
    expect(commandFor(question, "o1")).toEqual({
      type: "respond",
      interactionId: "toolu_x",
      response: { answers: { "Which?": "B" } },
    });
    expect(commandFor(question, "o2")).toBeNull();
    expect(commandFor(question, "a")).toBeNull();
  });

  it("offers no buttons for several questions or a multi-select, which are answered in Parley", () => {
    const two = {
      ...question,
      request: { questions: [1, 2].map((n) => ({ question: `Q${n}`, options: [{ label: "A" }] })) },
    };
    const multi = {
      ...question,
      request: { questions: [{ question: "Q", multiSelect: true, options: [{ label: "A" }] }] },
    };
    expect(choicesOf(two)).toEqual([]);
    expect(choicesOf(multi)).toEqual([]);
    expect(commandFor(multi, "o0")).toBeNull();
  });

  it("offers more time only while the deadline may still move", () => {
    const approval: InboxCard = { ...base, kind: "approval", request: {} };
    const policy = { onDeadline: "deny" as const, extendByMs: 60_000 };
    expect(
      choicesOf({ ...approval, deadlinePolicy: { ...policy, maxExpiresAt: 2_000 } }).map((c) => c.code),
    ).toEqual(["a", "d", "r", "x"]);
    expect(
      choicesOf({ ...approval, deadlinePolicy: { ...policy, maxExpiresAt: 1_000 } }).map((c) => c.code),
    ).toEqual(["a", "d", "r"]);
    expect(commandFor({ ...approval, deadlinePolicy: { ...policy, maxExpiresAt: 1_000 } }, "x")).toBeNull();
  });

  it("denies with the reason only when Deny with reason comes with its text", () => {
    const approval: InboxCard = { ...base, kind: "approval", request: {} };
    expect(choicesOf(approval).find((c) => c.code === "r")?.needsText).toMatchObject({
      label: "Deny with reason",
    });
    expect(commandFor(approval, "r", "Not on a Friday")).toEqual({
      type: "respond",
      interactionId: "toolu_x",
      response: { decision: "deny", reason: "Not on a Friday" },
    });
    expect(commandFor(approval, "r")).toBeNull();
    expect(commandFor(approval, "r", "")).toBeNull();
  });

  it("reads only `<ref>.<code>` back from a button", () => {
    expect(readChoiceValue("12.o3")).toEqual({ ref: 12, code: "o3" });
    expect(readChoiceValue("12")).toBeNull();
    expect(readChoiceValue("x.a")).toBeNull();
    expect(readChoiceValue(undefined)).toBeNull();
  });
});
