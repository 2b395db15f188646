import { describe, expect, it } from "vitest";
import {
  PLAN_OPTIONS,
  planReachesBeyondCard,
  planResponse,
} from "../../../../src/interactions/kinds/plan-view";

describe("a plan answer that reaches beyond its card", () => {
  it("is approving with edits accepted, which switches the session's permission mode", () => {
    expect(planReachesBeyondCard({ choice: "accept_edits" })).toBe(true);
  });

  it("is not reviewing each action nor keeping on planning, with or without feedback", () => {
    expect(planReachesBeyondCard({ choice: "review_each" })).toBe(false);
    expect(planReachesBeyondCard({ choice: "keep_planning" })).toBe(false);
    expect(planReachesBeyondCard({ choice: "keep_planning", feedback: "accept_edits" })).toBe(false);
  });

  it("is exactly the first of the choices the page and the terminal offer", () => {
    const beyond = PLAN_OPTIONS.map((option) => planReachesBeyondCard(planResponse(option.choice)));
    expect(beyond).toEqual([true, false, false]);
  });

  it("reads anything without throwing, and a value that is no answer does not reach beyond", () => {
    for (const value of [undefined, null, 0, "accept_edits", [], ["accept_edits"], { choice: null }])
      expect(planReachesBeyondCard(value)).toBe(false);
  });
});
