// Inbox connection tickets: what a browser puts in the inbox's WebSocket or EventSource URL instead
// of its credential. `POST /api/inbox/ws-ticket` signs who asked (the person, and the inbox link
// they came through) for 30 s; the Inbox object spends its id on connect, so it admits one stream.
import { sign, verify } from "hono/jwt";
import * as z from "zod";
import { LinkId } from "../../protocol/access/access";
import { InboxLinkRole } from "../../protocol/inbox/inbox-links";
import { lazySchema } from "../../protocol/lazy-schema";
import type { ConnectionTicketResponse } from "../../protocol/wire/http";
import { isCanonicalJwt } from "../../tokens/base64url";
import { newSessionId } from "../../tokens/session-token";
import type { InboxLinkClaims } from "../credentials/inbox-link-token";
import { HttpError } from "../http-error";
import { TICKET_TTL_MS } from "./connection-ticket";

const AUDIENCE = "parley:inbox-ticket";

const Claims = lazySchema(() =>
  z.object({
    aud: z.literal(AUDIENCE),
    sub: z.string().min(1),
    jti: z.string().regex(/^[0-9a-f]{32}$/),
    exp: z.number().int(),
    link: z
      .object({
        linkId: LinkId,
        role: InboxLinkRole,
        label: z.string().nullable(),
        expiresAt: z.number().nullable(),
      })
      .nullable(),
  }),
);

/** A checked inbox ticket: who it admits, and the id and expiry the Inbox object spends it by. */
export interface InboxTicket {
  person: string;
  link: InboxLinkClaims | null;
  id: string;
  expiresAt: number;
}

/** A ticket for `person`, or for the inbox link they came through. */
export async function signInboxTicket(
  secret: string,
  person: string,
  link: InboxLinkClaims | null,
  now: number,
): Promise<ConnectionTicketResponse> {
  const expiresAt = now + TICKET_TTL_MS;
  const claims = {
    aud: AUDIENCE,
    sub: person,
    jti: newSessionId(),
    exp: Math.floor(expiresAt / 1000),
    link: link
      ? { linkId: link.linkId, role: link.role, label: link.label, expiresAt: link.expiresAt }
      : null,
  };
  return { ticket: await sign(claims, secret, "HS256"), expiresAt: claims.exp * 1000 };
}

/** The ticket's claims; 403 when it is forged or expired at `now`. */
export async function checkInboxTicket(secret: string, ticket: string, now: number): Promise<InboxTicket> {
  let payload: unknown = null;
  if (isCanonicalJwt(ticket)) {
    try {
      payload = await verify(ticket, secret, { alg: "HS256", exp: false, nbf: false, iat: false });
    } catch {
      payload = null;
    }
  }
  const claims = Claims.safeParse(payload);
  if (!claims.success || claims.data.exp * 1000 <= now) {
    throw new HttpError("forbidden", "Unknown or expired inbox ticket; ask for a new one");
  }
  const { sub, jti, exp, link } = claims.data;
  return {
    person: sub,
    link: link ? { person: sub, ...link } : null,
    id: jti,
    expiresAt: exp * 1000,
  };
}
