// The decision record: one row per resolution of a person's card, kept by
// their inbox past the session's deletion, listed by `GET /api/decisions` and exported.
import * as z from "zod";
import { EscalationRung } from "../cards/deadline-policy";
import { Decider, DeviceKind } from "../cards/decider";
import { lazySchema } from "../lazy-schema";
import { InteractionOutcome } from "../session/session";

/**
 * How records written before deciders were structured named who decided: a person or link by the
 * name they answered with, a grant by id, the deadline, a withdrawal, or a cancel from a device.
 */
const LegacyDecidedBy = lazySchema(() =>
  z.discriminatedUnion("type", [
    z.object({ type: z.literal("person"), name: z.string().nullable(), device: DeviceKind }),
    z.object({ type: z.literal("grant"), grantId: z.string() }),
    z.object({ type: z.literal("deadline") }),
    z.object({ type: z.literal("withdrawal"), agent: z.string() }),
    z.object({ type: z.literal("cancel"), device: DeviceKind.nullable() }),
  ]),
);

/** An answerer's name as links were recorded: "<label> (share link 1a2b3c4d)". */
const LINK_NAME = /\((?:share|inbox) link [^)]{1,16}\)$/;

/** The one reader of an older record's decider: what its name and device said, once, here. */
function fromLegacy(by: z.infer<typeof LegacyDecidedBy>): Decider {
  switch (by.type) {
    case "grant":
      return { kind: "grant", label: null, id: by.grantId, device: null };
    case "deadline":
      return { kind: "deadline", label: null, id: null, device: null };
    case "withdrawal":
      return { kind: "withdrawal", label: by.agent, id: null, device: null };
    case "cancel":
      return by.device === null
        ? { kind: "system", label: null, id: null, device: null }
        : { kind: "person", label: null, id: null, device: by.device };
    case "person": {
      if (by.device === "chat") return { kind: "chat", label: by.name, id: null, device: "chat" };
      if (by.name && LINK_NAME.test(by.name))
        return { kind: "link", label: by.name, id: null, device: by.device };
      return { kind: "person", label: by.name, id: by.name, device: by.device };
    }
  }
}

/** Who decided, as stored: a structured decider, or an older record's shape read through fromLegacy. */
export const StoredDecider = lazySchema(() => z.union([Decider, LegacyDecidedBy.transform(fromLegacy)]));

/** A resolution as the session reports it (the outbox's `card_resolved` carries it). */
export const DecisionData = lazySchema(() =>
  z.object({
    agent: z.string(),
    kind: z.string(),
    toolName: z.string(),
    /** SHA-256 (hex) of the card's request as JSON; the request itself lives in the session. */
    inputDigest: z.string(),
    decidedBy: StoredDecider,
    /**
     * Set on a card a deployment's rule made wait for several distinct approvals: each approver in
     * order (the last one is `decidedBy` when it was approved).
     */
    approvals: z.array(Decider).optional(),
    /** The rungs of the card's escalation ladder that ran before it resolved, each with when. */
    escalations: z
      .array(EscalationRung.extend({ rung: z.number().int().nonnegative(), at: z.number() }))
      .optional(),
  }),
);
export type DecisionData = z.infer<typeof DecisionData>;

export const DecisionRecord = lazySchema(() =>
  DecisionData.extend({
    /** The record's cursor: increasing in the order the inbox learnt of them. */
    decisionId: z.number().int().positive(),
    at: z.number(),
    sessionId: z.string(),
    interactionId: z.string(),
    outcome: InteractionOutcome,
    /** Whether the session still exists (its page, and the full request, can be opened). */
    sessionExists: z.boolean(),
  }),
);
export type DecisionRecord = z.infer<typeof DecisionRecord>;

export const MAX_DECISIONS_PAGE = 500;

/** `GET /api/decisions` query: after a cursor, at most `limit`, optionally one session or tool. */
export const DecisionQuery = lazySchema(() =>
  z.strictObject({
    after: z.coerce.number().int().nonnegative().default(0),
    limit: z.coerce.number().int().min(1).max(MAX_DECISIONS_PAGE).default(100),
    session: z.string().min(1).max(64).optional(),
    tool: z.string().min(1).max(256).optional(),
  }),
);
export type DecisionQuery = z.infer<typeof DecisionQuery>;

export const DecisionPage = lazySchema(() =>
  z.object({
    decisions: z.array(DecisionRecord),
    /** The cursor for the next page, or null when this one reached the end. */
    next: z.number().int().nullable(),
  }),
);
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
  "decider_kind",
  "decider_id",
  "approvals",
  // The person the decider counts as (docs/guide-people.md#a-second-person-for-what-matters):
  // the person, or the one whose link or chat account answered, or an invited approver.
  "decider_person",
] as const;
