import { describe, expect, it } from "vitest";
import { mayChoose } from "../../../web/src/ui/owner-choices";

describe("choices the page offers by role", () => {
  it("offers the owner Always allow and a plan's accept edits", () => {
    expect(mayChoose("owner", { decision: "approve", remember: true })).toBe(true);
    expect(mayChoose("owner", { choice: "accept_edits" })).toBe(true);
  });

  it("offers an answer link neither, as the server refuses both from it", () => {
    expect(mayChoose("answer", { decision: "approve", remember: true })).toBe(false);
    expect(mayChoose("answer", { choice: "accept_edits" })).toBe(false);
  });

  it("still offers an answer link a one-card approval and a plan reviewed action by action", () => {
    expect(mayChoose("answer", { decision: "approve", remember: false })).toBe(true);
    expect(mayChoose("answer", { choice: "review_each" })).toBe(true);
    expect(mayChoose("answer", { choice: "keep_planning", feedback: "smaller steps" })).toBe(true);
  });
});
