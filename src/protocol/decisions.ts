// The decision record: one row per resolution of a person's card, kept by
// their inbox past the session's deletion, listed by `GET /api/decisions` and exported.
import * as z from "zod";
import { DeviceKind } from "./grants";
import { InteractionOutcome } from "./session";

/** Who decided a card: a person or link (by name), a grant (by id), the deadline, or a withdrawal. */
export const DecidedBy = z.discriminatedUnion("type", [
  z.object({ type: z.literal("person"), name: z.string().nullable(), device: DeviceKind }),
  z.object({ type: z.literal("grant"), grantId: z.string() }),
  z.object({ type: z.literal("deadline") }),
  z.object({ type: z.literal("withdrawal"), agent: z.string() }),
  z.object({ type: z.literal("cancel"), device: DeviceKind.nullable() }),
]);
export type DecidedBy = z.infer<typeof DecidedBy>;

/** A resolution as the session reports it (the outbox's `card_resolved` carries it). */
export const DecisionData = z.object({
  agent: z.string(),
  kind: z.string(),
  toolName: z.string(),
  /** SHA-256 (hex) of the card's request as JSON; the request itself lives in the session. */
  inputDigest: z.string(),
  decidedBy: DecidedBy,
});
export type DecisionData = z.infer<typeof DecisionData>;

export const DecisionRecord = DecisionData.extend({
  /** The record's cursor: increasing in the order the inbox learnt of them. */
  decisionId: z.number().int().positive(),
  at: z.number(),
  sessionId: z.string(),
  interactionId: z.string(),
  outcome: InteractionOutcome,
  /** Whether the session still exists (its page, and the full request, can be opened). */
  sessionExists: z.boolean(),
});
export type DecisionRecord = z.infer<typeof DecisionRecord>;

export const MAX_DECISIONS_PAGE = 500;

/** `GET /api/decisions` query: after a cursor, at most `limit`, optionally one session or tool. */
export const DecisionQuery = z.strictObject({
  after: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().min(1).max(MAX_DECISIONS_PAGE).default(100),
  session: z.string().min(1).max(64).optional(),
  tool: z.string().min(1).max(256).optional(),
});
export type DecisionQuery = z.infer<typeof DecisionQuery>;

export const DecisionPage = z.object({
  decisions: z.array(DecisionRecord),
  /** The cursor for the next page, or null when this one reached the end. */
  next: z.number().int().nullable(),
});
export type DecisionPage = z.infer<typeof DecisionPage>;

/** The CSV export's columns, in order. */
export const DECISION_CSV_COLUMNS = [
  "decision_id",
  "at",
  "session_id",
  "agent",
  "kind",
  "tool",
  "input_digest",
  "outcome",
  "decided_by",
  "device",
  "grant_id",
] as const;
