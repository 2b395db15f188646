// Which of a person's grants decides a call: only live ones in scope whose rule covers it; a deny
// beats any allow, and among several the oldest decides (the one listed first).
import { isPlainToolName, PARLEY_AGENT } from "./call-identity";
import { parseRule } from "./grant-rule";
import { type GrantEffect, partsAllowed, ruleMatches, type ToolCall } from "./rule-match";

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

/**
 * Where the call runs: its session and the agent working in it. `own` is Parley's own loop; an
 * outside agent is known by the id of the agent key its session was created with (`key`, null when
 * none was: then no "this agent" grant applies to it). Its name is only what it calls itself.
 */
export interface CallPlace {
  sessionId: string;
  agent: { name: string; key: string | null; own: boolean };
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
      if (grant.agent === null) return false;
      // Without a key a grant names Parley's own loop, which no outside agent can pass for.
      if (grant.agent.key === null) return grant.agent.name === PARLEY_AGENT && place.agent.own;
      return !place.agent.own && place.agent.key === grant.agent.key;
  }
}

/** The grant that decides `call`, or null when none covers it (then a person is asked). */
export function decidingGrant(
  grants: readonly ApplicableGrant[],
  call: ToolCall,
  place: CallPlace,
  now: number,
): ApplicableGrant | null {
  // An identity no rule can name (an ACP call of an unknown tool) is always a person's to decide.
  if (!isPlainToolName(call.toolName)) return null;
  const applying = (effect: GrantEffect) =>
    grants
      .filter((grant) => grant.effect === effect && isLive(grant, now) && inScope(grant, place))
      .sort((a, b) => a.createdAt - b.createdAt);
  const covering = (effect: GrantEffect) =>
    applying(effect).find((grant) => {
      const parsed = parseRule(grant.rule);
      return parsed.ok && ruleMatches(parsed.rule, call, effect);
    }) ?? null;
  return covering("deny") ?? covering("allow") ?? coveredPartByPart(applying("allow"), call);
}

/**
 * A list of commands (`npm test && git status`) that no one allow covers may still be covered
 * command by command by several; the oldest of those that cover a part decides.
 */
function coveredPartByPart(allows: readonly ApplicableGrant[], call: ToolCall): ApplicableGrant | null {
  let covered: boolean[] | null = null;
  let first: ApplicableGrant | null = null;
  for (const grant of allows) {
    const parsed = parseRule(grant.rule);
    const parts = parsed.ok ? partsAllowed(parsed.rule, call) : null;
    if (!parts?.some(Boolean)) continue;
    covered = covered ? covered.map((done, at) => done || parts[at] === true) : parts;
    first ??= grant;
    if (covered.every(Boolean)) return first;
  }
  return null;
}
