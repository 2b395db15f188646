// Agent keys: `pak_<person>.<key id>.<secret>`, the secret an HMAC of the person and key id, so the
// Worker refuses a forged key without waking anything. The person's Inbox object keeps only a hash
// of the secret, with the key's label, expiry and revocation.
import { AGENT_KEY_SHAPE } from "../protocol/machines/agent-key-words";
import { hmacKey } from "./session-token";

const encoder = new TextEncoder();

function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

async function secretOf(serverSecret: string, person: string, keyId: string): Promise<Uint8Array> {
  const text = encoder.encode(`parley:agent-key\n${person}\n${keyId}`);
  return new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(serverSecret), text));
}

/** SHA-256 of a key's secret part, as hex: what the Inbox object stores and compares. */
export async function agentKeyHash(secretPart: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(secretPart)));
  return [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A new agent key for `person`, and the hash of its secret to store. */
export async function signAgentKey(
  serverSecret: string,
  person: string,
  keyId: string,
): Promise<{ key: string; hash: string }> {
  const secret = toBase64Url(await secretOf(serverSecret, person, keyId));
  const key = `pak_${toBase64Url(encoder.encode(person))}.${keyId}.${secret}`;
  return { key, hash: await agentKeyHash(secret) };
}

export interface AgentKeyClaims {
  person: string;
  keyId: string;
  /** Hash of the presented secret, for the Inbox object to compare with the stored one. */
  hash: string;
}

/** What a presented agent key names, or null when it is malformed or not signed by this server. */
export async function readAgentKey(serverSecret: string, key: string): Promise<AgentKeyClaims | null> {
  const match = AGENT_KEY_SHAPE.exec(key);
  if (!match) return null;
  const [, personPart, keyId, secret] = match as unknown as [string, string, string, string];
  const personBytes = fromBase64Url(personPart);
  const presented = fromBase64Url(secret);
  if (!personBytes || presented?.byteLength !== 32) return null;
  let person: string;
  try {
    person = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(personBytes);
  } catch {
    return null;
  }
  // One spelling only: a re-encoding that differs (stray bits in the last character) is refused.
  if (toBase64Url(personBytes) !== personPart || toBase64Url(presented) !== secret) return null;
  const text = encoder.encode(`parley:agent-key\n${person}\n${keyId}`);
  const valid = await crypto.subtle.verify("HMAC", await hmacKey(serverSecret), presented, text);
  return valid ? { person, keyId, hash: await agentKeyHash(secret) } : null;
}
