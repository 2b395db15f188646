import { describe, expect, it } from "vitest";
import { DEFAULT_DEADLINE_POLICY, resolveDeadlinePolicy } from "../../../src/protocol/cards/deadline-policy";

describe("a card's deadline policy", () => {
  it("is the default, then the kind's, then the tool's, with the session's over the deployment's at each level", () => {
    const deployment = {
      default: { remindBeforeMs: [120_000] },
      kinds: { approval: { onDeadline: "deny" as const, extendByMs: 60_000 } },
      tools: { Bash: { onDeadline: "cancel" as const } },
    };
    const session = { kinds: { approval: { onDeadline: "keep_waiting" as const } } };
    expect(resolveDeadlinePolicy([deployment, session], "approval", "Bash")).toEqual({
      ...DEFAULT_DEADLINE_POLICY,
      onDeadline: "cancel",
      remindBeforeMs: [120_000],
      extendByMs: 60_000,
    });
    expect(resolveDeadlinePolicy([deployment, session], "approval", "notes_write").onDeadline).toBe(
      "keep_waiting",
    );
    expect(resolveDeadlinePolicy([null, null], "question", "AskUserQuestion")).toEqual(
      DEFAULT_DEADLINE_POLICY,
    );
  });

  it("never takes a layer from the object prototype for a tool named like one of its keys", () => {
    expect(resolveDeadlinePolicy([{ tools: {} }], "approval", "constructor")).toEqual(
      DEFAULT_DEADLINE_POLICY,
    );
  });
});
