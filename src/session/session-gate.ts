// Whether a credential may use the session now, with every refusal logged the same way wherever
// the credential arrived (an RPC, a socket frame, a stream), and the ids security logs carry.
import { logSecurityEvent } from "../log/security-log";
import type { Access } from "../protocol/access";
import type { ErrorBody } from "../protocol/errors";
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
