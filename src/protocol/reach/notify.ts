// Reaching people away from the tab: push subscriptions a device registers, the payloads pushes and
// webhooks carry, and the delivery log a session's owner can read.
import * as z from "zod";
import { lazySchema } from "../lazy-schema";
import { DeviceId, InteractionId, SessionId, ToolCallId } from "../session/session";
import { ChatPlatform } from "./channels";

function base64UrlBytes(text: string): number | null {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(text)) return null;
  try {
    return atob(text.replaceAll("-", "+").replaceAll("_", "/").replace(/=+$/, "")).length;
  } catch {
    // atob throws on impossible lengths; such a key is simply malformed.
    return null;
  }
}

/** A `PushSubscription.toJSON()` from the browser; keys are checked for the sizes RFC 8291 needs. */
export const PushSubscriptionJson = lazySchema(() =>
  z.object({
    endpoint: z
      .url()
      .max(2_000)
      // http only on loopback, for a local push service a dev server names (push-endpoint-guard.ts).
      .refine(
        (value) =>
          value.startsWith("https://") || /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\//.test(value),
        "endpoint must be https",
      ),
    expirationTime: z.number().nullable().optional(),
    keys: z.object({
      p256dh: z
        .string()
        .max(200)
        .refine((key) => base64UrlBytes(key) === 65, "keys.p256dh must be a base64url P-256 public key"),
      auth: z
        .string()
        .max(100)
        .refine((key) => base64UrlBytes(key) === 16, "keys.auth must be 16 base64url bytes"),
    }),
  }),
);
export type PushSubscriptionJson = z.infer<typeof PushSubscriptionJson>;

/** `POST …/push-subscriptions`: this device wants a push whenever a card opens or resolves. */
export const PushSubscriptionBody = lazySchema(() =>
  z.strictObject({
    deviceId: DeviceId,
    subscription: PushSubscriptionJson,
    /**
     * Approve and Deny on an approval's notification (the inbox's, for cards one answer decides and
     * Parley did not assess as `high`); true unless the person turns them off. Kept with the subscription.
     */
    actions: z.boolean().optional(),
  }),
);
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

/** `GET /api/notify`: whether this deployment can push, and why not. */
export const NotifyInfo = lazySchema(() =>
  z.object({
    vapidPublicKey: z.string().nullable(),
    reason: z.string().nullable(),
  }),
);
export type NotifyInfo = z.infer<typeof NotifyInfo>;

/** `reminder`: a card still open, some time before its deadline (its deadline policy's reminders). */
export const CardChange = lazySchema(() => z.enum(["opened", "reminder", "resolved"]));
export type CardChange = z.infer<typeof CardChange>;

/** What a push and a webhook say about one card: enough to notify, and a link to answer. */
export const CardNotice = lazySchema(() =>
  z.object({
    change: CardChange,
    sessionId: SessionId,
    seq: z.number().int().positive(),
    card: z.object({
      /** The card's own id (what `respond` and the page's `&card=` take). */
      interactionId: InteractionId,
      toolCallId: ToolCallId,
      kind: z.string(),
      toolName: z.string(),
      request: z.unknown(),
      outcome: z.string().nullable(),
      resolvedBy: z.string().nullable(),
      /** Who answered, as the server knows them (a person, or a link's label); absent when nobody did. */
      answeredBy: z.string().nullable().optional(),
    }),
    /** When an open card times out (ms since epoch). */
    deadline: z.number(),
    title: z.string(),
    body: z.string(),
    /** Opens the session at this card; carries the session token, so treat it as a secret. */
    url: z.string(),
    /** Set by the inbox on a card its notification may answer (src/notify/push-actions.ts). */
    answerable: z.literal(true).optional(),
  }),
);
export type CardNotice = z.infer<typeof CardNotice>;

/**
 * One row of an object's delivery log: a push, a webhook call, a chat message, an email, or a
 * session's report to its person's inbox.
 */
export const DeliveryView = lazySchema(() =>
  z.object({
    id: z.number().int(),
    channel: z.union([z.enum(["push", "webhook", "email", "inbox"]), ChatPlatform]),
    /**
     * The device id for a push, the URL's origin for a webhook, the chat link's id for a chat
     * message, the address for an email, the person for a report to their inbox.
     */
    target: z.string(),
    /**
     * The card's change, or why an email was sent; for a report, also a card's changed terms
     * (`changed`) or the session's summary (`summary`).
     */
    change: z.union([CardChange, z.enum(["verification", "escalation", "changed", "summary"])]),
    /** The card the row is about; null for an email about no card (a verification code). */
    interactionId: InteractionId.nullable(),
    status: z.enum(["pending", "delivered", "failed", "gone"]),
    attempts: z.number().int(),
    nextAt: z.number().nullable(),
    lastStatus: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: z.number(),
    updatedAt: z.number(),
  }),
);
export type DeliveryView = z.infer<typeof DeliveryView>;
