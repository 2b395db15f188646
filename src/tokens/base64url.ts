// Base64url without padding, in exactly one spelling: a token's last character carries bits no
// byte uses, so several spellings decode to the same bytes; a token is accepted only in the one
// its bytes encode to (decode, re-encode, compare), so a credential has one form, as logs and
// revocation lists assume.

export function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The bytes `text` encodes, or null when it is not base64url in its one canonical spelling. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    // atob throws on impossible lengths; such a token is simply wrong.
    return null;
  }
  return toBase64Url(bytes) === text ? bytes : null;
}

/** True when each of a JWT's three segments is base64url in its canonical spelling. */
export function isCanonicalJwt(token: string): boolean {
  const segments = token.split(".");
  return segments.length === 3 && segments.every((segment) => fromBase64Url(segment) !== null);
}
