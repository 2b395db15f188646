// Which of a person's grants decides a call: only live ones in scope whose rule covers it; a deny
// beats any allow, and among several the oldest decides (the one listed first).
import { parseRule } from "./grant-rule";
import { type GrantEffect, ruleMatches, type ToolCall } from "./rule-match";

/** A grant as the decision needs it. */
export interface ApplicableGrant {
  grantId: string;
  effect: GrantEffect;
  rule: string;
  scope: "session" | "agent" | "all";
  sessionId: string | null;
  agent: { name: string; key: string | null } | null;
  reason: string | null;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
}

/** Where the call runs: its session and the agent working in it ("Parley" for Parley's own). */
export interface CallPlace {
  sessionId: string;
  agent: { name: string; key: string | null };
}

export function isLive(grant: Pick<ApplicableGrant, "expiresAt" | "revokedAt">, now: number): boolean {
  return grant.revokedAt === null && (grant.expiresAt === null || grant.expiresAt > now);
}

export function inScope(grant: ApplicableGrant, place: CallPlace): boolean {
  switch (grant.scope) {
    case "all":
      return true;
    case "session":
      return grant.sessionId === place.sessionId;
    case "agent":
      return (
        grant.agent !== null &&
        grant.agent.name === place.agent.name &&
        (grant.agent.key === null || grant.agent.key === place.agent.key)
      );
  }
}

/** The grant that decides `call`, or null when none covers it (then a person is asked). */
export function decidingGrant(
  grants: readonly ApplicableGrant[],
  call: ToolCall,
  place: CallPlace,
  now: number,
): ApplicableGrant | null {
  const covering = (effect: GrantEffect) =>
    grants
      .filter((grant) => grant.effect === effect && isLive(grant, now) && inScope(grant, place))
      .sort((a, b) => a.createdAt - b.createdAt)
      .find((grant) => {
        const parsed = parseRule(grant.rule);
        return parsed.ok && ruleMatches(parsed.rule, call, effect);
      }) ?? null;
  return covering("deny") ?? covering("allow");
}
