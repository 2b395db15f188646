import { describe, expect, it } from "vitest";
import { approvalOf, claimText } from "../../../../src/interactions/kinds/approval-view";

/** The claim line of an approval request, read as the page reads it. */
const claimOf = (request: unknown) => claimText(approvalOf(request, "Bash").claim);

describe("an external agent's claim on an approval card", () => {
  it("reads as the agent's words, with its risk and description", () => {
    expect(claimOf({ claim: { risk: "read", description: "Lists files" } })).toBe(
      "The agent says: risk read · Lists files",
    );
    expect(claimOf({ claim: { description: "Lists files" } })).toBe("The agent says: Lists files");
  });

  it("is absent when the card carries no claim, whatever Parley's own risk says", () => {
    expect(claimOf({ risk: "execute", description: "Runs a command" })).toBeNull();
    expect(claimOf({ claim: {} })).toBeNull();
    expect(claimOf({ claim: { risk: 3, description: "  " } })).toBeNull();
    expect(claimOf(null)).toBeNull();
  });
});
