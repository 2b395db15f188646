import { describe, expect, it } from "vitest";
import { approvalReachesBeyondCard } from "../../../src/interactions/kinds/approval-view";
import { planReachesBeyondCard } from "../../../src/interactions/kinds/plan-view";
import { mayChoose } from "../../../web/src/ui/cards/owner-choices";

const alwaysAllow = approvalReachesBeyondCard({ decision: "approve", remember: true });
const acceptEdits = planReachesBeyondCard({ choice: "accept_edits" });

describe("choices the page offers by role", () => {
  it("offers the owner Always allow and a plan's accept edits", () => {
    expect(mayChoose("owner", alwaysAllow)).toBe(true);
    expect(mayChoose("owner", acceptEdits)).toBe(true);
  });

  it("offers an answer link neither, as the server refuses both from it", () => {
    expect(mayChoose("answer", alwaysAllow)).toBe(false);
    expect(mayChoose("answer", acceptEdits)).toBe(false);
  });

  it("still offers an answer link a one-card approval and a plan reviewed action by action", () => {
    expect(mayChoose("answer", approvalReachesBeyondCard({ decision: "approve", remember: false }))).toBe(
      true,
    );
    expect(mayChoose("answer", planReachesBeyondCard({ choice: "review_each" }))).toBe(true);
    expect(
      mayChoose("answer", planReachesBeyondCard({ choice: "keep_planning", feedback: "smaller steps" })),
    ).toBe(true);
  });

  it("offers a view link nothing beyond a card either", () => {
    expect(mayChoose("view", alwaysAllow)).toBe(false);
    expect(mayChoose("view", acceptEdits)).toBe(false);
  });
});
