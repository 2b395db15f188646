import { describe, expect, it } from "vitest";
import { agentClaimText } from "../../../web/src/agent-claim";

describe("an external agent's claim on an approval card", () => {
  it("reads as the agent's words, with its risk and description", () => {
    expect(agentClaimText({ claim: { risk: "read", description: "Lists files" } })).toBe(
      "The agent says: risk read · Lists files",
    );
    expect(agentClaimText({ claim: { description: "Lists files" } })).toBe("The agent says: Lists files");
  });

  it("is absent when the card carries no claim, whatever Parley's own risk says", () => {
    expect(agentClaimText({ risk: "execute", description: "Runs a command" })).toBeNull();
    expect(agentClaimText({ claim: {} })).toBeNull();
    expect(agentClaimText(null)).toBeNull();
  });
});
