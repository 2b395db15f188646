// The owner's own deadline policies for a session, over the deployment's: cards opened from then on
// follow them; cards already open keep the policy they opened with.
import { type DeadlinePolicies, unknownPolicyKinds } from "../protocol/cards/deadline-policy";
import type { CommandOutcome } from "./command-handler";
import type { SessionState } from "./session-state";

/** Stores the owner's policies for cards opened from now on; a kind name no kind has is refused. */
export function setDeadlinePolicies(
  state: Pick<SessionState, "meta">,
  policies: DeadlinePolicies,
  knownKinds: readonly string[],
): CommandOutcome {
  const unknown = unknownPolicyKinds(policies, knownKinds);
  if (unknown.length > 0) {
    return {
      ok: false,
      error: {
        code: "invalid_input",
        message: `deadlinePolicies.${unknown.join(", deadlinePolicies.")}: no interaction kind has this name`,
      },
    };
  }
  state.meta.set("deadline_policies", policies);
  return { ok: true, result: { deadlinePolicies: policies } };
}
