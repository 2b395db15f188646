// The guard of the session's one door (session-door.ts): whether a credential may use the session
// now, and whether its role may send a command, with every refusal logged the same way wherever the
// credential arrived (an RPC, a socket frame, a stream), and the ids security logs carry.
import type { AgentDeps } from "../agent/agent-deps";
import { logSecurityEvent } from "../log/security-log";
import { type Access, mayDecideBeyondCard, mayRun, OWNER } from "../protocol/access/access";
import type { SessionCommand } from "../protocol/wire/commands";
import type { ErrorBody } from "../protocol/wire/errors";
import { refuse } from "./session-refusal";
import type { SessionState } from "./session-state";

/** The session and link ids a security log line names; never a token. */
export function logIdsOf(
  state: SessionState,
  access: Pick<Access, "linkId">,
): { sessionId: string; linkId: string | null } {
  return { sessionId: state.meta.string("session_id") ?? "", linkId: access.linkId };
}

/** The refusal for `access` (revoked, expired, rotated away), logged; null when it is admitted. */
export function admit(state: SessionState, access: Access): ErrorBody | null {
  const refused = state.links.admit(access);
  if (refused) logSecurityEvent("credential_refused", { ...logIdsOf(state, access), reason: refused.code });
  return refused;
}

/**
 * Refuses a command beyond what `access`'s role may send: a command of another role, or an answer
 * its card's kind says changes the session beyond the card, which only the owner may always give.
 */
export function guardCommand(deps: AgentDeps, access: Access, command: SessionCommand): void {
  if (!mayRun(access.role, command.type))
    refuse("forbidden", `A ${access.role} link may not send ${command.type}`);
  // The owner may give any answer: the card is looked up only for another role's.
  if (access.role !== OWNER.role && !mayDecideBeyondCard(access.role, reachesBeyondCard(deps, command)))
    refuse(
      "forbidden",
      `Only the session's owner may always allow a tool, make a grant beyond this session or accept a plan with edits; a ${access.role} link may approve once`,
    );
}

/**
 * True when the command answers a card with an answer its kind says changes the session beyond it.
 * A `respond` names no kind, so the open card it addresses does (the loop's and an external agent's
 * cards alike); an unknown card is left to the answer's own not-found.
 */
function reachesBeyondCard(deps: AgentDeps, command: SessionCommand): boolean {
  const answer = deps.kinds.answerOf(command);
  if (!answer) return false;
  const kind = answer.kind ?? deps.interactions.get(answer.interactionId)?.kind;
  return kind !== undefined && deps.kinds.beyondCard(kind, answer.response);
}
