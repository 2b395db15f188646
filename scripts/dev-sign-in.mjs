// The one-time sign-in code `npm run dev` prints in the page's address: an HS256 JWT signed with
// the checkout's SESSION_SECRET, audience `parley:sign-in`, a random id and a short expiry. The
// Worker trades it once for the gateway token (src/router/access/sign-in-route.ts). Web Crypto only, so
// the Worker's tests mint codes the same way.

/** How long a printed address signs in: long enough to open it, short enough to be worth little after. */
export const SIGN_IN_TTL_MS = 10 * 60_000;

/** @param {Uint8Array} bytes */
function base64url(bytes) {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** @param {unknown} value */
const encodeJson = (value) => base64url(new TextEncoder().encode(JSON.stringify(value)));

/**
 * A sign-in code valid for `ttlMs` from `now`.
 * @param {string} secret  the SESSION_SECRET the Worker runs with
 * @param {number} now     milliseconds since the epoch
 * @param {number} [ttlMs]
 * @returns {Promise<string>}
 */
export async function signInCode(secret, now, ttlMs = SIGN_IN_TTL_MS) {
  const id = base16(crypto.getRandomValues(new Uint8Array(16)));
  const claims = { aud: "parley:sign-in", jti: id, exp: Math.floor((now + ttlMs) / 1000) };
  const signed = `${encodeJson({ alg: "HS256", typ: "JWT" })}.${encodeJson(claims)}`;
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(signed));
  return `${signed}.${base64url(new Uint8Array(mac))}`;
}

/** @param {Uint8Array} bytes */
function base16(bytes) {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * The address `npm run dev` prints: the page, signing in once with `code`.
 * @param {string} baseUrl  e.g. http://127.0.0.1:8787
 * @param {string} code
 */
export function signInAddress(baseUrl, code) {
  return `${baseUrl}/#/sign-in?code=${code}`;
}
