// Owner tokens: base64url(HMAC-SHA256(secret, sessionId)) for a session's first token, and
// `<version>~` + base64url(HMAC-SHA256(secret, "<sessionId>~<version>")) after each rotation, so the
// Worker checks any of them without storage and the object retires every version but its current
// one. Anyone holding the current one owns the session; nothing else (device ids included) is
// trusted for authorization. Share links: share-token.ts.

import { fromBase64Url, toBase64Url } from "./base64url";

const encoder = new TextEncoder();

// INVARIANT: imported keys per secret; secrets are fixed for an isolate's life, and a new isolate re-imports.
const keys = new Map<string, Promise<CryptoKey>>();

/** The HMAC-SHA256 key for `secret`, imported once per isolate. */
export function hmacKey(secret: string): Promise<CryptoKey> {
  let imported = keys.get(secret);
  if (!imported) {
    imported = crypto.subtle.importKey(
      "raw",
      encoder.encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    keys.set(secret, imported);
  }
  return imported;
}

function signedText(sessionId: string, version: number): string {
  return version === 1 ? sessionId : `${sessionId}~${version}`;
}

export async function signSessionToken(secret: string, sessionId: string, version = 1): Promise<string> {
  const text = signedText(sessionId, version);
  const signature = await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(text));
  const encoded = toBase64Url(new Uint8Array(signature));
  return version === 1 ? encoded : `${version}~${encoded}`;
}

/** Constant-time check (crypto.subtle.verify) of a presented owner token: its version, or null. */
export async function verifySessionToken(
  secret: string,
  sessionId: string,
  token: string,
): Promise<number | null> {
  const match = /^(?:([1-9][0-9]{0,5})~)?([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const version = match[1] === undefined ? 1 : Number(match[1]);
  // "1~…" is not a spelling of the first token; each token has exactly one form.
  if (match[1] !== undefined && version === 1) return null;
  const signature = fromBase64Url(match[2] as string);
  if (signature?.byteLength !== 32) return null;
  const text = signedText(sessionId, version);
  return (await crypto.subtle.verify("HMAC", await hmacKey(secret), signature, encoder.encode(text)))
    ? version
    : null;
}

/** A new random session id: 128 bits as 32 hex characters. */
export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}
