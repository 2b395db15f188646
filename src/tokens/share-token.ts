// Share link tokens: HS256 JWTs (Hono's JWT) naming the session (`sub`), the link (`jti`), its role
// and expiry, so the Worker checks them without waking the session's object. Owner tokens are a
// bare HMAC of the session id (session-token.ts), a format a JWT can never take.
import { sign } from "hono/jwt";
import * as z from "zod";
import { type Access, LinkId, LinkRole } from "../protocol/access/access";
import { lazySchema } from "../protocol/lazy-schema";
import { hmacKey, verifySessionToken } from "./session-token";
import { signedClaims } from "./signed-claims";

const AUDIENCE = "parley:share-link";

const Claims = lazySchema(() =>
  z.object({
    aud: z.literal(AUDIENCE),
    sub: z.string(),
    jti: LinkId,
    role: LinkRole,
    /** Seconds since the epoch, as JWTs count; absent for a link that lasts until revoked. */
    exp: z.number().int().optional(),
  }),
);

export interface LinkClaims {
  linkId: string;
  role: z.infer<typeof LinkRole>;
  expiresAt: number | null;
}

export async function signShareToken(secret: string, sessionId: string, link: LinkClaims): Promise<string> {
  return sign(
    {
      aud: AUDIENCE,
      sub: sessionId,
      jti: link.linkId,
      role: link.role,
      ...(link.expiresAt === null ? {} : { exp: Math.ceil(link.expiresAt / 1000) }),
    },
    await hmacKey(secret),
    "HS256",
  );
}

export type TokenCheck = { ok: true; access: Access } | { ok: false; reason: "wrong" | "expired" };

/** Checks an owner token or a share link token for `sessionId` at time `now`. */
export async function checkAccessToken(
  secret: string,
  sessionId: string,
  token: string,
  now: number,
): Promise<TokenCheck> {
  if (!token.includes(".")) {
    const version = await verifySessionToken(secret, sessionId, token);
    if (version === null) return { ok: false, reason: "wrong" };
    // The object checks the version against its current one (a rotation retires older ones).
    return {
      ok: true,
      access: { role: "owner", linkId: null, ...(version > 1 ? { ownerVersion: version } : {}) },
    };
  }
  const payload = await signedClaims(secret, token);
  if (payload === null) return { ok: false, reason: "wrong" };
  const claims = Claims.safeParse(payload);
  if (!claims.success || claims.data.sub !== sessionId) return { ok: false, reason: "wrong" };
  if (claims.data.exp !== undefined && claims.data.exp * 1000 <= now) return { ok: false, reason: "expired" };
  return { ok: true, access: { role: claims.data.role, linkId: claims.data.jti } };
}
