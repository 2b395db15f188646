// Cloudflare Access's signed assertion (`Cf-Access-Jwt-Assertion`): verified against the team's
// published keys, it names the person (their email) or the machine (a service token's common name).
// jose loads with the first assertion: a deployment without Access never needs it.
import type { JWTVerifyGetKey } from "jose";

export const ACCESS_ASSERTION_HEADER = "cf-access-jwt-assertion";

export interface AccessSettings {
  teamDomain: string;
  audience: string;
  /** The team's published keys: Access's own address, or a loopback one under `wrangler dev`. */
  certsUrl: string;
}

// INVARIANT: one key set per address, fetched on first use and refreshed by jose when a token
// names a key it has not seen; a new isolate fetches it again.
const keySets = new Map<string, JWTVerifyGetKey>();

function keySetOf(jose: typeof import("./access-assertion-jose"), certsUrl: string): JWTVerifyGetKey {
  let keys = keySets.get(certsUrl);
  if (!keys) {
    keys = jose.createRemoteJWKSet(new URL(certsUrl));
    keySets.set(certsUrl, keys);
  }
  return keys;
}

/**
 * The identity an assertion carries, or why it is refused. Only RS256 is accepted (what Access
 * signs with), so a token cannot pick a weaker algorithm; `aud`, `iss` and `exp` are all required.
 */
export async function verifyAccessAssertion(
  token: string,
  settings: AccessSettings,
): Promise<{ ok: true; person: string } | { ok: false; reason: string }> {
  try {
    const jose = await import("./access-assertion-jose");
    const { payload } = await jose.jwtVerify(token, keySetOf(jose, settings.certsUrl), {
      algorithms: ["RS256"],
      audience: settings.audience,
      issuer: `https://${settings.teamDomain}`,
      requiredClaims: ["exp"],
    });
    const person = stringClaim(payload.email) ?? stringClaim(payload.common_name);
    if (!person) return { ok: false, reason: "The assertion names no email or service token" };
    return { ok: true, person: person.toLowerCase() };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : "invalid assertion" };
  }
}

function stringClaim(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 && value.length <= 320 ? value : null;
}
