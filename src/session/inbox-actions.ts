// What a person's inbox asks of a session, done with the actor's own rights: the person, who must
// be the session's creator, acts as its owner whatever owner token is current; an inbox link acts
// with its own role and label, as a share link of that role would. The Worker names the actor;
// this session alone decides what that actor may do here.
import type { Access, LinkRole, ShareLinkView } from "../protocol/access";
import type { SessionCommand } from "../protocol/commands";
import type { CommandOutcome } from "./command-handler";
import { addLink, type LinkAdminHost, revokeLink } from "./link-admin";
import { refuse, SessionRefusal, UNKNOWN_SESSION } from "./session-refusal";

/** Who acts from the inbox: the person in person, or an inbox link they minted. */
export type InboxActor =
  | { kind: "person"; person: string }
  | {
      kind: "inbox_link";
      person: string;
      linkId: string;
      role: Extract<LinkRole, "answer" | "view">;
      label: string | null;
    };

/** What the inbox asks: a card command, a share link to open the session, revoking what a link opened. */
export type InboxAction =
  | { type: "command"; command: SessionCommand }
  | { type: "open"; link: Pick<ShareLinkView, "linkId" | "role" | "label" | "expiresAt"> }
  | { type: "revoke_opened"; linkId: string };

/** The device id receipts show for an answer given from the inbox. */
export const INBOX_DEVICE = "inbox";

/** How an answer given through an inbox link is recorded: its label and its id. */
export function linkAnswerer(link: { linkId: string; label: string | null }): string {
  return `${link.label ?? "inbox link"} (inbox link ${link.linkId.slice(0, 8)})`;
}

/**
 * The rights an inbox actor acts with: the person as the owner, whatever owner token is current;
 * a link as a share link of its role.
 */
export function inboxActorAccess(actor: InboxActor): Access {
  return actor.kind === "person"
    ? { role: "owner", linkId: null }
    : { role: actor.role, linkId: actor.linkId };
}

export interface InboxActionHost extends LinkAdminHost {
  exists(): boolean;
  /**
   * Runs `command` as `access` within bucket `bucket`'s allowance: the inbox's traffic has buckets
   * of its own, so neither it nor the owner's token can spend the other's.
   */
  runCommand(
    sent: { command: SessionCommand; deviceId: string; access: Access; answeredBy: string },
    bucket: string,
  ): CommandOutcome;
}

export function runInboxAction(
  host: InboxActionHost,
  actor: InboxActor,
  action: InboxAction,
): CommandOutcome {
  if (!host.exists()) throw new SessionRefusal(UNKNOWN_SESSION);
  const creator = host.state.creator();
  if (creator === null) refuse("unknown_session", "No such session");
  if (creator !== actor.person) refuse("forbidden", "This session belongs to another person");
  if (action.type === "command") {
    // Never an owner token's version (inboxActorAccess): a rotation of the token leaves the person
    // their inbox; a link is refused what a share link of its role is refused.
    const access = inboxActorAccess(actor);
    const answeredBy = actor.kind === "person" ? actor.person : linkAnswerer(actor);
    const bucket = actor.kind === "person" ? "inbox:person" : `inbox:${actor.linkId}`;
    return host.runCommand({ command: action.command, deviceId: INBOX_DEVICE, access, answeredBy }, bucket);
  }
  const linkId = action.type === "open" ? action.link.linkId : action.linkId;
  const known = host.state.links.list().find((link) => link.linkId === linkId);
  if (action.type === "open") {
    if (known?.revokedAt) refuse("forbidden", "The session's owner revoked this inbox's access");
    if (!known) addLink(host, action.link);
    return { ok: true, result: { linkId: action.link.linkId } };
  }
  // A link that never got its share link here (the open failed after it was noted) has nothing to revoke.
  if (!known) return { ok: true, result: { revoked: false } };
  revokeLink(host, linkId);
  return { ok: true, result: { revoked: true } };
}
