// Security-relevant events as one JSON line each, for Workers Logs (`[observability]` in
// wrangler.toml): refused credentials (Access assertions and inbox links included), requests
// refused as cross-site, revocations and rotations, rate-limit and budget refusals,
// refused push endpoints and failed deliveries. Lines name the session and the link, never a token.

export type SecurityEvent =
  | "credential_refused"
  | "cross_origin_refused"
  | "link_revoked"
  | "owner_token_rotated"
  | "rate_limited"
  | "delivery_failed"
  | "push_endpoint_refused"
  | "budget_exhausted";

export interface SecurityFields {
  sessionId?: string | null;
  /** The share link involved; null for the owner. */
  linkId?: string | null;
  /** A short machine-readable reason (an error code, a channel). */
  reason?: string;
  /** An HTTP status, where one was involved. */
  status?: number | null;
}

/** Writes one structured line; `at` is added here so every line has it. */
export function logSecurityEvent(event: SecurityEvent, fields: SecurityFields = {}): void {
  const line = {
    level: "warn",
    event,
    sessionId: fields.sessionId ?? null,
    linkId: fields.linkId ?? null,
    ...(fields.reason === undefined ? {} : { reason: fields.reason }),
    ...(fields.status === undefined || fields.status === null ? {} : { status: fields.status }),
    at: new Date().toISOString(),
  };
  console.warn(JSON.stringify(line));
}
