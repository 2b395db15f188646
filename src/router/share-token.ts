// Share link tokens: signed claims `s1.<base64url JSON>.<base64url HMAC>` naming the session, the
// link, its role and expiry, so the Worker checks them without waking the session's object.
import { z } from "zod";
import { type Access, LinkId, LinkRole } from "../protocol/access";
import { fromBase64Url, key, toBase64Url, verifySessionToken } from "./session-token";

const encoder = new TextEncoder();
const PREFIX = "s1.";

const Claims = z.strictObject({
  sid: z.string(),
  lid: LinkId,
  role: LinkRole,
  exp: z.number().int().nullable(),
});
type Claims = z.infer<typeof Claims>;

export interface LinkClaims {
  linkId: string;
  role: z.infer<typeof LinkRole>;
  expiresAt: number | null;
}

// The signed text carries a domain tag, so a link's signature can never pass as an owner token
// (which signs the bare 32-hex session id).
const signed = (payload: string) => encoder.encode(`share:${payload}`);

export async function signShareToken(secret: string, sessionId: string, link: LinkClaims): Promise<string> {
  const claims: Claims = { sid: sessionId, lid: link.linkId, role: link.role, exp: link.expiresAt };
  const payload = toBase64Url(encoder.encode(JSON.stringify(claims)));
  const signature = await crypto.subtle.sign("HMAC", await key(secret), signed(payload));
  return `${PREFIX}${payload}.${toBase64Url(new Uint8Array(signature))}`;
}

export type TokenCheck = { ok: true; access: Access } | { ok: false; reason: "wrong" | "expired" };

/** Checks an owner token or a share link token for `sessionId` at time `now`. */
export async function checkAccessToken(
  secret: string,
  sessionId: string,
  token: string,
  now: number,
): Promise<TokenCheck> {
  if (!token.startsWith(PREFIX)) {
    return (await verifySessionToken(secret, sessionId, token))
      ? { ok: true, access: { role: "owner", linkId: null } }
      : { ok: false, reason: "wrong" };
  }
  const [payload, signature, extra] = token.slice(PREFIX.length).split(".");
  if (!payload || !signature || extra !== undefined || payload.length > 400)
    return { ok: false, reason: "wrong" };
  const signatureBytes = fromBase64Url(signature);
  const payloadBytes = fromBase64Url(payload, 400);
  if (signatureBytes?.byteLength !== 32 || !payloadBytes) return { ok: false, reason: "wrong" };
  if (!(await crypto.subtle.verify("HMAC", await key(secret), signatureBytes, signed(payload)))) {
    return { ok: false, reason: "wrong" };
  }
  const claims = Claims.safeParse(parseJson(new TextDecoder().decode(payloadBytes)));
  if (!claims.success || claims.data.sid !== sessionId) return { ok: false, reason: "wrong" };
  if (claims.data.exp !== null && claims.data.exp <= now) return { ok: false, reason: "expired" };
  return { ok: true, access: { role: claims.data.role, linkId: claims.data.lid } };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
