// Who answers, as the server knows them — recorded with every resolution beside the device id the
// client chose: the session's owner is its creator (a person); a share link is its label and id.
import type { Access } from "../protocol/access";
import type { SessionState } from "./session-state";

export function answererOf(state: SessionState, access: Access): string | null {
  if (access.linkId === null) return state.creator();
  const link = state.links.list().find((candidate) => candidate.linkId === access.linkId);
  return `${link?.label || `${access.role} link`} (share link ${access.linkId.slice(0, 8)})`;
}
