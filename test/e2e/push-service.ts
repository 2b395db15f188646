// A stand-in Web Push service on a loopback port (a dev server takes http endpoints there when
// PUSH_SERVICE_DOMAINS names 127.0.0.1): it records what the Worker posts, and the test decrypts
// each push with the subscription keys it made (RFC 8291, aes128gcm) as the browser would.

import { webcrypto } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const subtle = webcrypto.subtle;

export interface PushService {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** The bodies posted so far, oldest first. */
  received: Buffer[];
  close(): Promise<void>;
}

export async function startPushService(): Promise<PushService> {
  const received: Buffer[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push(Buffer.concat(chunks));
      response.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A browser's side of a subscription: its ECDH key pair and auth secret. */
export interface SubscriptionKeys {
  pair: CryptoKeyPair;
  publicRaw: Uint8Array;
  auth: Uint8Array;
  json: { p256dh: string; auth: string };
}

export async function subscriptionKeys(): Promise<SubscriptionKeys> {
  const pair = (await subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ])) as CryptoKeyPair;
  const publicRaw = new Uint8Array(await subtle.exportKey("raw", pair.publicKey));
  const auth = webcrypto.getRandomValues(new Uint8Array(16));
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
  return { pair, publicRaw, auth, json: { p256dh: b64(publicRaw), auth: b64(auth) } };
}

async function hkdf(salt: Uint8Array, ikm: Uint8Array, info: Uint8Array, bits: number): Promise<Uint8Array> {
  const key = await subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(await subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, key, bits));
}

/** Decrypts one `aes128gcm` push body (RFC 8188 framing, RFC 8291 keys) to the JSON it carries. */
export async function decryptPush(body: Uint8Array, keys: SubscriptionKeys): Promise<unknown> {
  const salt = body.subarray(0, 16);
  const idLength = body[20] ?? 0;
  const senderPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const sender = await subtle.importKey(
    "raw",
    senderPublic,
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const shared = new Uint8Array(
    await subtle.deriveBits({ name: "ECDH", public: sender }, keys.pair.privateKey, 256),
  );
  const text = (value: string) => new TextEncoder().encode(value);
  const ikm = await hkdf(
    keys.auth,
    shared,
    Buffer.concat([text("WebPush: info\0"), keys.publicRaw, senderPublic]),
    256,
  );
  const cek = await hkdf(salt, ikm, text("Content-Encoding: aes128gcm\0"), 128);
  const nonce = await hkdf(salt, ikm, text("Content-Encoding: nonce\0"), 96);
  const key = await subtle.importKey("raw", cek, "AES-GCM", false, ["decrypt"]);
  const padded = new Uint8Array(await subtle.decrypt({ name: "AES-GCM", iv: nonce }, key, ciphertext));
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("not the last record of an aes128gcm push");
  return JSON.parse(new TextDecoder().decode(padded.subarray(0, end)));
}
