// The signed tokens of invited approvers: the single-use invite (naming the inviter and the invite),
// the approver's own credential without Access (naming the inviter and the approver, never the
// inviter's rights), and a 30-second ticket for the approver's socket. Each has its own audience;
// whether an invite is spent or an approver removed only the inviter's inbox knows, asked on every use.
import { sign } from "hono/jwt";
import * as z from "zod";
import { ApproverId } from "../../people/people-terms";
import { lazySchema } from "../../protocol/lazy-schema";
import { newSessionId } from "../../tokens/session-token";
import { signedClaims } from "../../tokens/signed-claims";
import { TICKET_TTL_MS } from "./connection-ticket";

const INVITE = "parley:people-invite";
const APPROVER = "parley:approver";
const TICKET = "parley:approver-ticket";

const Inviter = lazySchema(() => z.string().min(1).max(320));

const InviteClaims = lazySchema(() =>
  z.object({
    aud: z.literal(INVITE),
    sub: Inviter,
    jti: ApproverId,
    exp: z.number().int(),
  }),
);
const ApproverClaims = lazySchema(() =>
  z.object({
    aud: z.literal(APPROVER),
    sub: Inviter,
    jti: ApproverId,
    name: z.string(),
  }),
);
const TicketClaims = lazySchema(() =>
  z.object({
    aud: z.literal(TICKET),
    sub: Inviter,
    approver: ApproverId,
    jti: ApproverId,
    exp: z.number().int(),
  }),
);

/** Who an approver credential or ticket admits: the approver, and whose cards they answer. */
export interface ApproverClaim {
  inviter: string;
  approverId: string;
}

export async function signInvite(secret: string, inviter: string, inviteId: string, expiresAt: number) {
  return sign(
    { aud: INVITE, sub: inviter, jti: inviteId, exp: Math.floor(expiresAt / 1000) },
    secret,
    "HS256",
  );
}

/** The invite a token names, or why not (an expired one is told apart only once its signature holds). */
export async function checkInvite(
  secret: string,
  token: string,
  now: number,
): Promise<{ ok: true; inviter: string; inviteId: string } | { ok: false; reason: "wrong" | "expired" }> {
  const claims = InviteClaims.safeParse(await signedClaims(secret, token));
  if (!claims.success) return { ok: false, reason: "wrong" };
  if (claims.data.exp * 1000 <= now) return { ok: false, reason: "expired" };
  return { ok: true, inviter: claims.data.sub, inviteId: claims.data.jti };
}

/** An approver's own credential (without Access): it lasts until the inviter removes them. */
export async function signApprover(secret: string, claim: ApproverClaim & { name: string }) {
  return sign(
    { aud: APPROVER, sub: claim.inviter, jti: claim.approverId, name: claim.name },
    secret,
    "HS256",
  );
}

export async function checkApprover(secret: string, token: string): Promise<ApproverClaim | null> {
  const claims = ApproverClaims.safeParse(await signedClaims(secret, token));
  return claims.success ? { inviter: claims.data.sub, approverId: claims.data.jti } : null;
}

export async function signApproverTicket(secret: string, claim: ApproverClaim, now: number) {
  const exp = Math.floor((now + TICKET_TTL_MS) / 1000);
  const claims = { aud: TICKET, sub: claim.inviter, approver: claim.approverId, jti: newSessionId(), exp };
  return { ticket: await sign(claims, secret, "HS256"), expiresAt: exp * 1000 };
}

/** A ticket's approver and the id and expiry the inbox spends it by; null when forged or expired. */
export async function checkApproverTicket(secret: string, ticket: string, now: number) {
  const claims = TicketClaims.safeParse(await signedClaims(secret, ticket));
  if (!claims.success || claims.data.exp * 1000 <= now) return null;
  const { sub, approver, jti, exp } = claims.data;
  return { inviter: sub, approverId: approver, id: jti, expiresAt: exp * 1000 };
}
