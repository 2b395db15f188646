// What an external agent says about its own approval (its risk, its description), in words that
// mark it as the agent's claim: the page never shows it as Parley's own risk chip or summary. The
// approval view (src/interactions/kinds/approval-view.ts) reads the claim from the request.
import type { ApprovalShown } from "../../src/interactions/kinds/approval-view";

/** "The agent says: risk execute · Runs the tests"; null when the card carries no claim. */
export function agentClaimText(claim: ApprovalShown["claim"]): string | null {
  const parts = [
    claim.risk === null ? null : `risk ${claim.risk}`,
    claim.description === null || claim.description.trim() === "" ? null : claim.description,
  ].filter((part): part is string => part !== null);
  return parts.length === 0 ? null : `The agent says: ${parts.join(" · ")}`;
}
