// Owner tokens: base64url(HMAC-SHA256(secret, sessionId)). Anyone holding one owns the session;
// nothing else (device ids included) is trusted for authorization. Share links: share-token.ts.

const encoder = new TextEncoder();

// INVARIANT: imported keys per secret; secrets are fixed for an isolate's life, and a new isolate re-imports.
const keys = new Map<string, Promise<CryptoKey>>();

function key(secret: string): Promise<CryptoKey> {
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

export async function signSessionToken(secret: string, sessionId: string): Promise<string> {
  const signature = await crypto.subtle.sign("HMAC", await key(secret), encoder.encode(sessionId));
  return toBase64Url(new Uint8Array(signature));
}

/** Constant-time check (crypto.subtle.verify) of a presented token. */
export async function verifySessionToken(secret: string, sessionId: string, token: string): Promise<boolean> {
  const signature = fromBase64Url(token);
  if (signature?.byteLength !== 32) return false;
  return crypto.subtle.verify("HMAC", await key(secret), signature, encoder.encode(sessionId));
}

/** A new random session id: 128 bits as 32 hex characters. */
export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(text)) return null;
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    // atob throws on impossible lengths; such a token is simply wrong.
    return null;
  }
}
