// The grant a card may offer beside its call: the rule the page pre-fills, and whether that rule
// would actually allow this very call. Computed where the card opens, where the shell parser is
// loaded, so a device never offers a grant that could match nothing.
import { isPlainToolName } from "./call-identity";
import { parseRule } from "./grant-rule";
import { prefilledRule } from "./narrowest-rule";
import { ruleMatches, type ToolCall } from "./rule-match";

export interface GrantOffer {
  rule: string;
  /** Whether `rule`, as an allow, covers the call the card asks about. */
  covers: boolean;
}

/** The pre-filled rule and whether it covers `call`; null when the call's tool is not one a grant can name. */
export function grantOfferFor(call: ToolCall, suggested: readonly string[] = []): GrantOffer | null {
  if (!isPlainToolName(call.toolName)) return null;
  const rule = prefilledRule(call.toolName, call.input, suggested);
  const parsed = parseRule(rule);
  return { rule, covers: parsed.ok && ruleMatches(parsed.rule, call, "allow") };
}
