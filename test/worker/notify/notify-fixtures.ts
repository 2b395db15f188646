// The notify tests' side of the network: script what a push service or webhook receiver answers,
// read back what the Worker sent, and decrypt a push as a browser would (RFC 8291).
import { runDurableObjectAlarm } from "cloudflare:test";
import { expect } from "vitest";
import type { DeliveryView } from "../../../src/protocol";
import { CONTROL_HOST } from "../../helpers/notify-bindings";
import { api, type CreatedSession, type Device, toolReply } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";

/** A model reply that opens one question card, `toolu_ask_push`. */
export const ASK = toolReply([
  {
    id: "toolu_ask_push",
    name: "AskUserQuestion",
    input: {
      questions: [
        {
          question: "Which database should the service use?",
          header: "Database",
          multiSelect: false,
          options: [
            { label: "Postgres", description: "Relational" },
            { label: "SQLite", description: "Embedded" },
          ],
        },
      ],
    },
  },
]);

/** A push service host of a test's own, so its recorded requests are only that test's. */
export function pushHost(): string {
  return `push-${crypto.randomUUID().slice(0, 8)}.parley.test`;
}

/** `POST …/push-subscriptions` for `deviceId` with `session.token` (the owner's or a share link's). */
export async function subscribe(
  session: { sessionId: string; token: string },
  deviceId: string,
  endpoint: string,
  keys: { p256dh: string; auth: string },
): Promise<Response> {
  return api("POST", `/api/sessions/${session.sessionId}/push-subscriptions`, {
    token: session.token,
    body: { deviceId, subscription: { endpoint, expirationTime: null, keys } },
  });
}

/** Sends a message that makes the scripted model open the `ASK` card. */
export async function openCard(device: Device): Promise<void> {
  await device.request({ type: "send_message", text: "set up the service" });
  await device.waitForEvent("question_prompt");
}

export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** The next answers `host` gives (to requests whose body contains `contains`); 201 after that. */
export async function scriptAnswers(host: string, statuses: number[], contains = ""): Promise<void> {
  const query = new URLSearchParams({ host, contains });
  const response = await fetch(`http://${CONTROL_HOST}/script?${query}`, {
    method: "POST",
    body: JSON.stringify(statuses),
  });
  expect(response.status).toBe(204);
}

/** Every request the Worker sent to `host`, oldest first. */
export async function sentTo(host: string): Promise<SentRequest[]> {
  const response = await fetch(`http://${CONTROL_HOST}/requests?host=${encodeURIComponent(host)}`);
  const rows = (await response.json()) as Array<Omit<SentRequest, "body"> & { body: string }>;
  return rows.map((row) => ({ ...row, body: Uint8Array.from(atob(row.body), (c) => c.charCodeAt(0)) }));
}

/**
 * Runs the session's alarm (which sends due deliveries and returns once they are answered) until
 * `predicate` holds: a delivery is queued by the turn, which may still be on its way.
 */
export async function deliver<T>(
  session: CreatedSession,
  predicate: () => Promise<T | undefined | false>,
  what: string,
): Promise<T> {
  const deadline = Date.now() + 8_000;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await runDurableObjectAlarm(stubOf(session.sessionId));
  }
}

export async function deliveryLog(session: CreatedSession): Promise<DeliveryView[]> {
  const response = await api("GET", `/api/sessions/${session.sessionId}/deliveries`, {
    token: session.token,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { deliveries: DeliveryView[] }).deliveries;
}

const b64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
export const fromB64url = (text: string) =>
  Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0));

/** A browser's side of a push subscription: its ECDH key pair and auth secret. */
export interface BrowserKeys {
  keyPair: CryptoKeyPair;
  publicRaw: Uint8Array;
  auth: Uint8Array;
  json: { p256dh: string; auth: string };
}

export async function browserKeys(): Promise<BrowserKeys> {
  const keyPair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ])) as CryptoKeyPair;
  const publicRaw = new Uint8Array((await crypto.subtle.exportKey("raw", keyPair.publicKey)) as ArrayBuffer);
  const auth = crypto.getRandomValues(new Uint8Array(16));
  return { keyPair, publicRaw, auth, json: { p256dh: b64url(publicRaw), auth: b64url(auth) } };
}

async function hkdf(salt: Uint8Array, ikm: Uint8Array, info: Uint8Array, bits: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(
    await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, key, bits),
  );
}

const bytesOf = (text: string) => new TextEncoder().encode(text);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
};

/** Decrypts an `aes128gcm` push body (RFC 8188 framing, RFC 8291 keys) with the browser's keys. */
export async function decryptPush(body: Uint8Array, keys: BrowserKeys): Promise<unknown> {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const salt = body.slice(0, 16);
  const recordSize = view.getUint32(16);
  const idLength = body[20] ?? 0;
  const senderPublic = body.slice(21, 21 + idLength);
  const ciphertext = body.slice(21 + idLength);
  expect(idLength).toBe(65);
  expect(ciphertext.byteLength).toBeLessThanOrEqual(recordSize);
  const sender = await crypto.subtle.importKey(
    "raw",
    senderPublic,
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const shared = new Uint8Array(
    // workers-types names the field `$public`; the runtime takes the standard `public`.
    await crypto.subtle.deriveBits(
      { name: "ECDH", public: sender } as unknown as SubtleCryptoDeriveKeyAlgorithm,
      keys.keyPair.privateKey,
      256,
    ),
  );
  const ikm = await hkdf(
    keys.auth,
    shared,
    concat(bytesOf("WebPush: info\0"), keys.publicRaw, senderPublic),
    256,
  );
  const cek = await hkdf(salt, ikm, bytesOf("Content-Encoding: aes128gcm\0"), 128);
  const nonce = await hkdf(salt, ikm, bytesOf("Content-Encoding: nonce\0"), 96);
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["decrypt"]);
  const padded = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce }, key, ciphertext));
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(2); // the delimiter of the last (only) record
  return JSON.parse(new TextDecoder().decode(padded.slice(0, end)));
}

/** Verifies the VAPID `Authorization: vapid t=<jwt>, k=<key>` header (RFC 8292); returns the claims. */
export async function verifyVapid(header: string, expectedKey: string): Promise<Record<string, unknown>> {
  const match = /^vapid t=([^,]+), k=(\S+)$/.exec(header);
  if (!match) throw new Error(`not a vapid header: ${header}`);
  const [, jwt = "", key = ""] = match;
  expect(key).toBe(expectedKey);
  const [head = "", claims = "", signature = ""] = jwt.split(".");
  expect(JSON.parse(new TextDecoder().decode(fromB64url(head)))).toEqual({ typ: "JWT", alg: "ES256" });
  const publicKey = await crypto.subtle.importKey(
    "raw",
    fromB64url(key),
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["verify"],
  );
  const valid = await crypto.subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    publicKey,
    fromB64url(signature),
    bytesOf(`${head}.${claims}`),
  );
  expect(valid).toBe(true);
  return JSON.parse(new TextDecoder().decode(fromB64url(claims))) as Record<string, unknown>;
}
