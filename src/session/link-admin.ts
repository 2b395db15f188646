// The owner's credentials over time: share links recorded, revoked and expired, and the owner token
// rotated. A credential that stops working loses its live sockets and event streams at once.
import { logSecurityEvent } from "../log/security-log";
import type { Outcome } from "../objects/outcome";
import { SOCKET_CLOSE, socketTag } from "../objects/socket-access";
import { OWNER, type ShareLinkView } from "../protocol/access/access";
import { refuse } from "./session-refusal";
import type { SessionState } from "./session-state";

/** What the session object lends these: its stores, and a way to close a credential's connections. */
export interface LinkAdminHost {
  readonly state: SessionState;
  /** Closes every socket and event stream tagged `tag`. */
  closeConnections(tag: string, code: number, reason: string): void;
  logIds(access: { linkId: string | null }): { sessionId: string; linkId: string | null };
}

/** Records a share link the Worker signs next; its expiry becomes a deadline. */
export function addLink(
  host: LinkAdminHost,
  link: Pick<ShareLinkView, "linkId" | "role" | "label" | "expiresAt">,
): Outcome<ShareLinkView> {
  const record =
    host.state.links.add(link) ?? refuse("too_many_links", "This session holds too many share links");
  host.state.deadlines.rearm(); // its expiry closes its sockets
  return { ok: true, result: record };
}

/** Revokes a link: its sockets and streams close and its push subscriptions go. */
export function revokeLink(host: LinkAdminHost, linkId: string): Outcome<ShareLinkView> {
  const link = host.state.links.revoke(linkId) ?? refuse("not_found", "No such share link");
  logSecurityEvent("link_revoked", host.logIds({ linkId }));
  host.state.deadlines.rearm();
  host.closeConnections(socketTag({ linkId }), SOCKET_CLOSE.revoked, "This share link was revoked");
  host.state.subscriptions.deleteByLink(linkId);
  return { ok: true, result: link };
}

/**
 * Retires the owner token's current version; the Worker signs the next one. Its push subscriptions
 * end too: their links carry the retired token, and a device re-subscribes with the new one.
 */
export function rotateOwnerToken(host: LinkAdminHost): Outcome<{ version: number }> {
  const version = host.state.links.rotateOwner();
  logSecurityEvent("owner_token_rotated", host.logIds(OWNER));
  host.state.subscriptions.deleteOwners();
  host.closeConnections(socketTag(OWNER), SOCKET_CLOSE.revoked, "The owner token was rotated");
  return { ok: true, result: { version } };
}

/** Closes what the links that expired by `now` still hold (run by the alarm). */
export function expireLinks(host: LinkAdminHost, now: number): void {
  for (const link of host.state.links.takeExpired(now)) {
    host.closeConnections(socketTag(link), SOCKET_CLOSE.expired, "This share link has expired");
    host.state.subscriptions.deleteByLink(link.linkId);
  }
}
