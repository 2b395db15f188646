// The payload of a JWT the deployment signed (HS256 under its secret), read in one place for every
// kind of token: one spelling per token, the signature first, and expiry left to the caller so a
// forged token is never called "expired".
import { verify } from "hono/jwt";
import { isCanonicalJwt } from "./base64url";
import { hmacKey } from "./session-token";

/** The token's payload, unchecked beyond its signature; null for a forged or re-spelled token. */
export async function signedClaims(secret: string, token: string): Promise<unknown | null> {
  // A JWT segment re-spelled in its last character is refused, not decoded.
  if (!isCanonicalJwt(token)) return null;
  try {
    // The key imported once per isolate (hmacKey), not on every request as a string secret would be.
    return await verify(token, await hmacKey(secret), { alg: "HS256", exp: false, nbf: false, iat: false });
  } catch {
    return null;
  }
}
