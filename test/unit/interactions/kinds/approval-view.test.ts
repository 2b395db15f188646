import { describe, expect, it } from "vitest";
import { approvalOf, approvalReachesBeyondCard } from "../../../../src/interactions/kinds/approval-view";

const ODD_VALUES: unknown[] = [undefined, null, 0, 1, "", "remember", true, [], [true], { grant: null }];

describe("an approval answer that reaches beyond its card", () => {
  it("is Always allow, Always deny, or a grant for this agent or every session", () => {
    expect(approvalReachesBeyondCard({ decision: "approve", remember: true })).toBe(true);
    expect(approvalReachesBeyondCard({ decision: "deny", remember: true })).toBe(true);
    for (const scope of ["agent", "all"])
      expect(approvalReachesBeyondCard({ decision: "approve", grant: { rule: "Bash(ls)", scope } })).toBe(
        true,
      );
  });

  it("counts a grant whose scope is missing or unknown as wider than the session", () => {
    expect(approvalReachesBeyondCard({ decision: "approve", grant: { rule: "Bash(ls)" } })).toBe(true);
    expect(approvalReachesBeyondCard({ decision: "approve", grant: { scope: "galaxy" } })).toBe(true);
  });

  it("is not an answer for this card alone: approve once, deny, edit, or a grant for this session", () => {
    expect(approvalReachesBeyondCard({ decision: "approve", remember: false })).toBe(false);
    expect(approvalReachesBeyondCard({ decision: "approve" })).toBe(false);
    expect(approvalReachesBeyondCard({ decision: "deny", reason: "no", stop: true })).toBe(false);
    expect(approvalReachesBeyondCard({ decision: "approve", updatedInput: { command: "ls" } })).toBe(false);
    expect(
      approvalReachesBeyondCard({ decision: "approve", grant: { rule: "Bash(ls)", scope: "session" } }),
    ).toBe(false);
  });

  it("reads anything without throwing, and a value that is no answer does not reach beyond", () => {
    for (const value of ODD_VALUES) expect(approvalReachesBeyondCard(value)).toBe(false);
    expect(approvalReachesBeyondCard({ remember: "true" })).toBe(false);
  });
});

describe("an approval's request as a device shows it", () => {
  it("falls back to the tool call's own name and input when the request does not name them", () => {
    expect(approvalOf(null, "Bash", { command: "ls" })).toMatchObject({
      toolName: "Bash",
      input: { command: "ls" },
      risk: null,
      suggestedRules: [],
    });
    expect(approvalOf({ toolName: "Read", input: { path: "a" } }, "Bash", { command: "ls" })).toMatchObject({
      toolName: "Read",
      input: { path: "a" },
    });
    expect(approvalOf({}, "Bash").input).toEqual({});
  });

  it("keeps only the suggested rules that are strings", () => {
    const shown = approvalOf({ toolName: "Bash", suggestedRules: ["Bash(ls:*)", 3, null, "Bash"] }, "x");
    expect(shown.suggestedRules).toEqual(["Bash(ls:*)", "Bash"]);
    expect(approvalOf({ suggestedRules: "Bash" }, "x").suggestedRules).toEqual([]);
  });
});
