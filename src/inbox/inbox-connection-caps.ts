// How many connections a person's inbox holds open: the person's own credential, all inbox links
// together, and each inbox link, so links can never take the person's room. WebSockets and event
// streams count together, as a session's do (src/session/connections/connection-caps.ts).

import type { EventStreams } from "../objects/event-streams";
import {
  MAX_CONNECTIONS_PER_LINK,
  MAX_INBOX_CONNECTIONS_PER_PERSON,
  MAX_INBOX_LINK_CONNECTIONS,
} from "../protocol/limits";
import type { ErrorBody } from "../protocol/wire/errors";
import { PERSON_TAG } from "./inbox-stream-request";

/** Why one more connection tagged `tag` (PERSON_TAG, or an inbox link's id) is refused, or null. */
export function inboxConnectionRefusal(
  ctx: DurableObjectState,
  streams: EventStreams,
  tag: string,
): ErrorBody | null {
  const tagged = (of: string) => ctx.getWebSockets(of).length + streams.countTagged(of);
  const person = tagged(PERSON_TAG);
  if (tag === PERSON_TAG) {
    return person >= MAX_INBOX_CONNECTIONS_PER_PERSON
      ? tooMany(`This inbox already has ${MAX_INBOX_CONNECTIONS_PER_PERSON} open connections of yours`)
      : null;
  }
  const links = ctx.getWebSockets().length + streams.size - person;
  if (links >= MAX_INBOX_LINK_CONNECTIONS) {
    return tooMany(`This inbox's links already hold ${MAX_INBOX_LINK_CONNECTIONS} open connections`);
  }
  if (tagged(tag) >= MAX_CONNECTIONS_PER_LINK) {
    return tooMany(`This inbox link already has ${MAX_CONNECTIONS_PER_LINK} open connections`);
  }
  return null;
}

function tooMany(message: string): ErrorBody {
  return { code: "too_many_sockets", message };
}
