// Error codes every edge speaks: HTTP `{ error: { code, message } }` bodies and socket `ack` errors.
import * as z from "zod";
import { lazySchema } from "../lazy-schema";
import { InteractionResolution } from "../session/session";

export const ErrorCode = lazySchema(() =>
  z.enum([
    "bad_json",
    "invalid_input",
    "payload_too_large",
    "unsupported_media_type",
    "cross_origin",
    "unknown_command",
    "unauthorized",
    "forbidden",
    "not_found",
    "unknown_session",
    "unknown_interaction",
    "unknown_message",
    "wrong_interaction_kind",
    "already_resolved",
    "already_approved",
    "invalid_answer",
    "nothing_to_cancel",
    "session_stopped",
    "no_agent",
    "not_top_agent",
    "nothing_to_retry",
    "deadline_at_maximum",
    "queue_full",
    "budget_exhausted",
    "misconfigured",
    "link_expired",
    "link_revoked",
    "rate_limited",
    "too_many_sockets",
    "too_many_links",
    "too_many_pending",
    "key_conflict",
    "too_many_grants",
    "not_your_subscription",
    "machine_offline",
    "internal",
  ]),
);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorBody = lazySchema(() =>
  z.object({
    code: ErrorCode,
    message: z.string(),
    /** For `already_resolved`: the winning resolution, so late devices can show it. */
    resolution: InteractionResolution.optional(),
    /** For `invalid_answer`: the problem with each field of the answer, for cards that show them inline. */
    fields: z.record(z.string(), z.string()).optional(),
    /** For `rate_limited`: whole seconds until a retry may succeed (HTTP also sends it as Retry-After). */
    retryAfterSeconds: z.number().int().positive().optional(),
  }),
);
export type ErrorBody = z.infer<typeof ErrorBody>;

/** HTTP status for each error code (the socket sends the same body in an `ack`). */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  bad_json: 400,
  invalid_input: 400,
  payload_too_large: 413,
  unsupported_media_type: 415,
  // A page of another site sent it: the person's browser, not the person.
  cross_origin: 403,
  unknown_command: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  unknown_session: 404,
  unknown_interaction: 404,
  unknown_message: 404,
  wrong_interaction_kind: 400,
  already_resolved: 409,
  // The same answerer approved a card that needs several distinct approvals: it still counts once.
  already_approved: 409,
  invalid_answer: 400,
  nothing_to_cancel: 409,
  session_stopped: 409,
  no_agent: 409,
  not_top_agent: 409,
  nothing_to_retry: 409,
  // A bad request by its policy's terms (extending beyond the maximum), not a race: nothing changes.
  deadline_at_maximum: 400,
  queue_full: 409,
  budget_exhausted: 409,
  misconfigured: 500,
  link_expired: 401,
  link_revoked: 401,
  rate_limited: 429,
  too_many_sockets: 429,
  too_many_links: 409,
  too_many_pending: 429,
  // The key names a card opened with another request: returning that card would answer the wrong one.
  key_conflict: 409,
  too_many_grants: 409,
  not_your_subscription: 403,
  // The machine's daemon is not connected (or did not answer): nothing was started, ask again later.
  machine_offline: 409,
  internal: 500,
};

/** The refusal of a command or read that names an interaction this session does not have. */
export function unknownInteraction(id: string): { ok: false; error: ErrorBody } {
  return { ok: false, error: { code: "unknown_interaction", message: `No interaction with id "${id}"` } };
}

export interface DescribeZodErrorOptions {
  /** Lists at most this many issues and counts the rest; a wall of them only costs a model tokens. */
  maxIssues?: number;
}

/**
 * Turns a zod error into one readable line, one `path: problem` clause per issue, for devices (an
 * error ack or a 400) and for the model (an is_error tool result):
 * `questions.0.header: header must be at most 12 characters; …`. A problem with the value as a
 * whole is its message alone.
 */
export function describeZodError(error: z.ZodError, { maxIssues }: DescribeZodErrorOptions = {}): string {
  const listed = error.issues.slice(0, maxIssues).map((issue) => {
    const where = issue.path.map(String).join(".");
    return where === "" ? issue.message : `${where}: ${issue.message}`;
  });
  const more = error.issues.length - listed.length;
  return more > 0 ? `${listed.join("; ")}; and ${more} more` : listed.join("; ");
}
