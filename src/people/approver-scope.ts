// Which of the inviter's cards an invited approver sees and may answer: all, those of one agent's
// sessions, or the approvals whose call a rule covers (read as a deny reads it, so a compound
// command that runs the rule's program is in scope too).
import { parseRule } from "../grants/grant-rule";
import { ruleMatches } from "../grants/rule-match";
import { PERMISSION_GATE_KIND } from "../interactions/kinds/names";
import type { PeopleScope } from "./people-terms";

/** A card as the inbox holds it, with the agent its session lists. */
export interface ScopedCard {
  kind: string;
  toolName: string;
  request: unknown;
  agent: string | null;
}

/** Whether `card` is within `scope`. A rule that no longer parses covers nothing. */
export function inScope(scope: PeopleScope, card: ScopedCard): boolean {
  if (scope.scope === "all") return true;
  if (scope.scope === "agent") return card.agent === scope.agent;
  if (card.kind !== PERMISSION_GATE_KIND) return false;
  const parsed = parseRule(scope.rule);
  if (!parsed.ok) return false;
  const input = (card.request as { input?: unknown } | null)?.input;
  return ruleMatches(parsed.rule, { toolName: card.toolName, input }, "deny");
}
