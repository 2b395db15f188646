// Inbox link tokens: HS256 JWTs naming the person (`sub`), the link (`jti`), its role, label and
// expiry, checked in the Worker; revocation is kept by the person's Inbox object.
import { sign, verify } from "hono/jwt";
import * as z from "zod";
import { LinkId } from "../../protocol/access/access";
import { InboxLinkRole } from "../../protocol/inbox/inbox-links";
import { lazySchema } from "../../protocol/lazy-schema";
import { isCanonicalJwt } from "../../tokens/base64url";

const AUDIENCE = "parley:inbox-link";

const Claims = lazySchema(() =>
  z.object({
    aud: z.literal(AUDIENCE),
    sub: z.string().min(1),
    jti: LinkId,
    role: InboxLinkRole,
    label: z.string().nullable(),
    exp: z.number().int().optional(),
  }),
);

export interface InboxLinkClaims {
  person: string;
  linkId: string;
  role: z.infer<typeof InboxLinkRole>;
  label: string | null;
  expiresAt: number | null;
}

export async function signInboxLinkToken(secret: string, link: InboxLinkClaims): Promise<string> {
  return sign(
    {
      aud: AUDIENCE,
      sub: link.person,
      jti: link.linkId,
      role: link.role,
      label: link.label,
      ...(link.expiresAt === null ? {} : { exp: Math.ceil(link.expiresAt / 1000) }),
    },
    secret,
    "HS256",
  );
}

/** The link a token names, or why it is refused (never "expired" for a forged one). */
export async function checkInboxLinkToken(
  secret: string,
  token: string,
  now: number,
): Promise<{ ok: true; link: InboxLinkClaims } | { ok: false; reason: "wrong" | "expired" }> {
  // One spelling per token: a JWT segment re-spelled in its last character is refused, not decoded.
  if (!isCanonicalJwt(token)) return { ok: false, reason: "wrong" };
  let payload: unknown;
  try {
    payload = await verify(token, secret, { alg: "HS256", exp: false, nbf: false, iat: false });
  } catch {
    return { ok: false, reason: "wrong" };
  }
  const claims = Claims.safeParse(payload);
  if (!claims.success) return { ok: false, reason: "wrong" };
  const { sub, jti, role, label, exp } = claims.data;
  if (exp !== undefined && exp * 1000 <= now) return { ok: false, reason: "expired" };
  return {
    ok: true,
    link: { person: sub, linkId: jti, role, label, expiresAt: exp === undefined ? null : exp * 1000 },
  };
}
