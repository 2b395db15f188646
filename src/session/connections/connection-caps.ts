// How many connections a session and each share link may hold open: WebSockets and event streams
// count together, so neither kind is a way around the other's cap.

import type { EventStreams } from "../../objects/event-streams";
import { socketTag } from "../../objects/socket-access";
import type { Access } from "../../protocol/access/access";
import { MAX_CONNECTIONS_PER_LINK, MAX_SOCKETS_PER_SESSION } from "../../protocol/limits";
import type { ErrorBody } from "../../protocol/wire/errors";

/** Why one more connection for `access` is refused, or null when there is room. */
export function connectionRefusal(
  ctx: DurableObjectState,
  streams: EventStreams | null,
  access: Access,
): ErrorBody | null {
  const open = ctx.getWebSockets().length + (streams?.size ?? 0);
  if (open >= MAX_SOCKETS_PER_SESSION) {
    return {
      code: "too_many_sockets",
      message: `This session already has ${MAX_SOCKETS_PER_SESSION} open connections`,
    };
  }
  if (access.linkId === null) return null;
  const tag = socketTag(access);
  const mine = ctx.getWebSockets(tag).length + (streams?.countTagged(tag) ?? 0);
  if (mine >= MAX_CONNECTIONS_PER_LINK) {
    return {
      code: "too_many_sockets",
      message: `This share link already has ${MAX_CONNECTIONS_PER_LINK} open connections`,
    };
  }
  return null;
}
