// What an external agent says about its own approval (its risk, its description), in words that
// mark it as the agent's claim: the page never shows it as Parley's own risk chip or summary.

/** "The agent says: risk execute · Runs the tests"; null when the card carries no claim. */
export function agentClaimText(request: unknown): string | null {
  const claim = (request as { claim?: unknown } | null)?.claim;
  if (typeof claim !== "object" || claim === null) return null;
  const { risk, description } = claim as { risk?: unknown; description?: unknown };
  const parts = [
    typeof risk === "string" ? `risk ${risk}` : null,
    typeof description === "string" && description.trim() !== "" ? description : null,
  ].filter((part): part is string => part !== null);
  return parts.length === 0 ? null : `The agent says: ${parts.join(" · ")}`;
}
