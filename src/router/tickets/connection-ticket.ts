// Connection tickets: what a browser puts in a WebSocket or EventSource URL instead of its token.
// `POST /api/sessions/:id/ws-ticket` (any valid token) signs an HS256 JWT naming the session, the
// access of the token that asked, a random id and an expiry 30 s ahead; the Worker checks it like
// a token, and the session's object spends its id on connect, so a ticket that leaks through a
// log or a proxy is worth nothing: used, or expired.
import { Hono } from "hono";
import { sign, verify } from "hono/jwt";
import * as z from "zod";
import { Access } from "../../protocol/access/access";
import { lazySchema } from "../../protocol/lazy-schema";
import type { ConnectionTicketResponse } from "../../protocol/wire/http";
import { isCanonicalJwt } from "../../tokens/base64url";
import { newSessionId } from "../../tokens/session-token";
import type { AppEnv, Ticket } from "../app-env";

const AUDIENCE = "parley:connection-ticket";
export const TICKET_TTL_MS = 30_000;

const Claims = lazySchema(() =>
  z.object({
    aud: z.literal(AUDIENCE),
    sub: z.string(),
    jti: z.string().regex(/^[0-9a-f]{32}$/),
    access: Access,
    exp: z.number().int(),
  }),
);

export async function signTicket(secret: string, sessionId: string, access: Access, now: number) {
  const expiresAt = now + TICKET_TTL_MS;
  const claims = {
    aud: AUDIENCE,
    sub: sessionId,
    jti: newSessionId(),
    access,
    exp: Math.floor(expiresAt / 1000),
  };
  return { ticket: await sign(claims, secret, "HS256"), expiresAt: claims.exp * 1000 };
}

/** The ticket's claims, or null when it is forged, for another session, or expired at `now`. */
export async function checkTicket(
  secret: string,
  sessionId: string,
  ticket: string,
  now: number,
): Promise<Ticket | null> {
  if (!isCanonicalJwt(ticket)) return null;
  let payload: unknown;
  try {
    payload = await verify(ticket, secret, { alg: "HS256", exp: false, nbf: false, iat: false });
  } catch {
    return null;
  }
  const claims = Claims.safeParse(payload);
  if (!claims.success || claims.data.sub !== sessionId || claims.data.exp * 1000 <= now) return null;
  return { access: claims.data.access, id: claims.data.jti, expiresAt: claims.data.exp * 1000 };
}

export const ticketRoutes = new Hono<AppEnv>();

ticketRoutes.post("/", async (c) => {
  // Without the signed-in person: a ticket rides in a URL, and its socket is named by whoever
  // Access signs in when it connects (src/router/guards/session-owner-guard.ts).
  const { signedInAs: _signedInAs, ...access } = c.get("access");
  const signed = await signTicket(
    c.get("config").sessionSecret,
    c.get("sessionId"),
    access as Access,
    Date.now(),
  );
  const response: ConnectionTicketResponse = signed;
  return c.json(response, 201);
});
