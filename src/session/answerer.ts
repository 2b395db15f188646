// Who answers, as the server knows them — recorded with every resolution beside the device id the
// client chose: the session's owner is its creator (a person); a share link is its label and id.
// Each counts as a person: whom Access signed in to present it, else the session's creator, who
// alone mints its links (the owner token, their inbox, chat accounts and See all presses).
import type { Access } from "../protocol/access/access";
import type { Decider, DeviceKind } from "../protocol/cards/decider";
import type { SessionState } from "./session-state";

/** The decider a credential answers as, from the kind of device its command entered through. */
export function deciderOf(state: SessionState, access: Access, device: DeviceKind): Decider {
  const creator = state.creator();
  const personId = access.signedInAs ?? creator;
  if (access.linkId === null) {
    return { kind: "person", label: creator, id: creator, device, personId };
  }
  const link = state.links.list().find((candidate) => candidate.linkId === access.linkId);
  const label = `${link?.label || `${access.role} link`} (share link ${access.linkId.slice(0, 8)})`;
  return { kind: "link", label, id: access.linkId, device, personId };
}
