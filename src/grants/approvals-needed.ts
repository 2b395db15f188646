// How many distinct approvals a call needs under the deployment's APPROVAL_POLICIES: the most any
// covering rule asks, else one. Rules are read as a deny reads them, so a compound command
// (`ls && git push`) is covered by `Bash(git push:*)` too: a rule that asks for more never misses.
import { isPlainToolName } from "./call-identity";
import { parseRule } from "./grant-rule";
import { ruleMatches, type ToolCall } from "./rule-match";

/** One policy as the deployment's configuration checked it (src/protocol/grants/approval-policy.ts). */
interface RuleNeedingApprovals {
  rule: string;
  approvals: number;
}

export function approvalsNeeded(policies: readonly RuleNeedingApprovals[], call: ToolCall): number {
  let needed = 1;
  // A call whose tool is not known (an ACP `acp:<kind>`) may be any of them: it asks the most.
  if (!isPlainToolName(call.toolName))
    return policies.reduce((most, policy) => Math.max(most, policy.approvals), needed);
  for (const policy of policies) {
    const parsed = parseRule(policy.rule);
    if (parsed.ok && ruleMatches(parsed.rule, call, "deny")) needed = Math.max(needed, policy.approvals);
  }
  return needed;
}
