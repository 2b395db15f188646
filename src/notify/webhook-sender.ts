// Signed webhooks: a JSON POST per card change with `X-Parley-Signature: v1=<hex>`, the
// HMAC-SHA256 of `<timestamp>.<body>`, so a receiver can check both origin and freshness.
import type { CardNotice } from "../protocol/reach/notify";
import { attempt, resultOf, type SendResult } from "./send-result";

const encoder = new TextEncoder();

/** `v1=` + hex HMAC-SHA256(secret, `${timestamp}.${body}`). */
export async function signWebhook(secret: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${timestamp}.${body}`));
  return `v1=${Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export async function sendWebhook(
  webhook: { url: string; secret: string },
  notice: CardNotice,
  deliveryId: number,
  now: number,
): Promise<SendResult> {
  const body = JSON.stringify(notice);
  const timestamp = Math.floor(now / 1000);
  const signature = await signWebhook(webhook.secret, timestamp, body);
  const response = await attempt((signal) =>
    fetch(webhook.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "Parley-Webhook/1",
        "x-parley-event": `card.${notice.change}`,
        "x-parley-delivery": String(deliveryId),
        "x-parley-timestamp": String(timestamp),
        "x-parley-signature": signature,
      },
      body,
      signal,
    }),
  );
  return response instanceof Response ? resultOf(response) : response;
}
