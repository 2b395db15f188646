// Checks a sign-in code: an HS256 JWT (SESSION_SECRET) of audience `parley:sign-in`, a random id
// and an expiry at most 15 minutes ahead, minted by `npm run dev` (scripts/dev-sign-in.mjs).
import { verify } from "hono/jwt";
import * as z from "zod";
import { SIGN_IN_AUDIENCE, SIGN_IN_MAX_TTL_MS } from "../../protocol/access/sign-in";
import { lazySchema } from "../../protocol/lazy-schema";
import { isCanonicalJwt } from "../../tokens/base64url";

const Claims = lazySchema(() =>
  z.object({
    aud: z.literal(SIGN_IN_AUDIENCE),
    jti: z.string().regex(/^[0-9a-f]{32}$/),
    exp: z.number().int(),
  }),
);

/** A sign-in code's id and expiry, by which it is spent; null when forged, expired or too long-lived. */
export async function checkSignInCode(
  secret: string,
  code: string,
  now: number,
): Promise<{ id: string; expiresAt: number } | null> {
  if (!isCanonicalJwt(code)) return null;
  let payload: unknown = null;
  try {
    payload = await verify(code, secret, { alg: "HS256", exp: false, nbf: false, iat: false });
  } catch {
    return null;
  }
  const claims = Claims.safeParse(payload);
  if (!claims.success) return null;
  const expiresAt = claims.data.exp * 1000;
  if (expiresAt <= now || expiresAt > now + SIGN_IN_MAX_TTL_MS) return null;
  return { id: claims.data.jti, expiresAt };
}
