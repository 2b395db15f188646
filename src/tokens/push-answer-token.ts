// Answer tokens that ride in an approval's encrypted push: a capability to approve or deny that one
// card once, until its deadline, with no page open. HS256 JWTs under their own audience (so no
// share link or other token is ever read as one); single use is the session's spent-token row.
import { sign } from "hono/jwt";
import * as z from "zod";
import { lazySchema } from "../protocol/lazy-schema";
import type { CardNotice } from "../protocol/reach/notify";
import { InteractionId, SessionId } from "../protocol/session/session";
import { hmacKey } from "./session-token";
import { signedClaims } from "./signed-claims";

const AUDIENCE = "parley:push-answer";

/** What a notification's action may answer. */
export const PushDecision = lazySchema(() => z.enum(["approve", "deny"]));
export type PushDecision = z.infer<typeof PushDecision>;

const Claims = lazySchema(() =>
  z.object({
    aud: z.literal(AUDIENCE),
    sub: SessionId,
    iid: InteractionId,
    /** The person the answer counts as: the inbox's, who subscribed the device in person. */
    per: z.string().min(1),
    dec: z.array(PushDecision).min(1),
    /** The card's deadline in milliseconds; `exp` says the same in JWT seconds. */
    until: z.number().int(),
    exp: z.number().int(),
    jti: z.string().min(16).max(64),
  }),
);

export interface PushAnswerClaims {
  sessionId: string;
  interactionId: string;
  person: string;
  decisions: PushDecision[];
  /** The card's deadline (ms): the token answers nothing after it. */
  expiresAt: number;
  /** The token's own id: spent once in the session. */
  nonce: string;
}

/** A fresh token for one card; `nonce` is random unless given. */
export async function signPushAnswerToken(
  secret: string,
  claims: Omit<PushAnswerClaims, "nonce"> & { nonce?: string },
): Promise<string> {
  const nonce = claims.nonce ?? crypto.randomUUID().replaceAll("-", "");
  return sign(
    {
      aud: AUDIENCE,
      sub: claims.sessionId,
      iid: claims.interactionId,
      per: claims.person,
      dec: claims.decisions,
      until: claims.expiresAt,
      exp: Math.ceil(claims.expiresAt / 1000),
      jti: nonce,
    },
    await hmacKey(secret),
    "HS256",
  );
}

/** What decides whether one device's push of a card carries an answer token. */
export interface AnsweringDevice {
  /** The share or inbox link the device subscribed through; null when its person subscribed in person. */
  linkId: string | null;
  /** False once the person turned the notification's actions off for this device. */
  actions: boolean;
  /** The person an answer from this device counts as; null when no person is known. */
  person: string | null;
}

/**
 * The answer token one device's push of `notice` carries, or null: only for a card marked answerable
 * (src/notify/push-actions.ts) that is still open, pushed to a device its person subscribed in
 * person and left the actions on. The inbox's pushes and a session's own both ask here.
 */
export async function pushAnswerTokenFor(
  secret: string,
  notice: CardNotice,
  device: AnsweringDevice,
): Promise<string | null> {
  if (!notice.answerable || notice.change === "resolved") return null;
  if (device.linkId !== null || !device.actions || !device.person) return null;
  return signPushAnswerToken(secret, {
    sessionId: notice.sessionId,
    interactionId: notice.card.interactionId,
    person: device.person,
    decisions: ["approve", "deny"],
    expiresAt: notice.deadline,
  });
}

export type PushAnswerCheck =
  | { ok: true; claims: PushAnswerClaims }
  | { ok: false; reason: "wrong" | "expired" };

/** Checks a token's signature, audience and shape first, then its deadline against `now`. */
export async function checkPushAnswerToken(
  secret: string,
  token: string,
  now: number,
): Promise<PushAnswerCheck> {
  const payload = await signedClaims(secret, token);
  if (payload === null) return { ok: false, reason: "wrong" };
  const claims = Claims.safeParse(payload);
  if (!claims.success) return { ok: false, reason: "wrong" };
  const c = claims.data;
  if (c.until <= now) return { ok: false, reason: "expired" };
  return {
    ok: true,
    claims: {
      sessionId: c.sub,
      interactionId: c.iid,
      person: c.per,
      decisions: c.dec,
      expiresAt: c.until,
      nonce: c.jti,
    },
  };
}
