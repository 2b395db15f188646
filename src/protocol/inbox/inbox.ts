// A person's inbox (docs/inbox.md#the-inbox): what sessions report to it through their outbox, and what the
// inbox shows — its sessions, every open card across them, and its own event log for streams.
import * as z from "zod";
import { ApprovalCount } from "../cards/approval-count";
import { CardDeadlineTerms, EscalationRung } from "../cards/deadline-policy";
import { lazySchema } from "../lazy-schema";
import { ChatPlatform } from "../reach/channels";
import { InteractionId, InteractionOutcome, SessionId, SessionStatus, ToolCallId } from "../session/session";
import { DecisionData } from "./decisions";

/** A session as its creator's inbox lists it. */
export const InboxSessionSummary = lazySchema(() =>
  z.object({
    status: SessionStatus,
    /** The session's title, or its first message, shortened; null before anything was said. */
    title: z.string().nullable(),
    /** Who works in it: "Parley" for Parley's own agent, else the external agent's name. */
    agent: z.string(),
    createdAt: z.number(),
    lastActivity: z.number(),
  }),
);
export type InboxSessionSummary = z.infer<typeof InboxSessionSummary>;

/** An open card as the inbox holds it. */
export const InboxCardData = lazySchema(() =>
  z.object({
    interactionId: InteractionId,
    toolCallId: ToolCallId,
    kind: z.string(),
    toolName: z.string(),
    request: z.unknown(),
    createdAt: z.number(),
    expiresAt: z.number(),
    /** What the deadline does and how far "more time" may move it; absent on cards reported before. */
    deadlinePolicy: CardDeadlineTerms.optional(),
    /** An approval that needs several distinct approvals: how many so far ("1 of 2 approvals"). */
    approvals: ApprovalCount.optional(),
  }),
);
export type InboxCardData = z.infer<typeof InboxCardData>;

/** One change a session reports, written in the same transaction as the event it follows. */
export const OutboxEntry = lazySchema(() =>
  z.discriminatedUnion("type", [
    z.object({ type: z.literal("card_opened"), card: InboxCardData }),
    /**
     * An open card's terms changed ("more time" moved its deadline, an approval was counted): the
     * inbox's copy takes them, and no device is told the card opened again.
     */
    z.object({ type: z.literal("card_changed"), card: InboxCardData }),
    z.object({
      type: z.literal("card_resolved"),
      interactionId: InteractionId,
      outcome: InteractionOutcome,
      resolvedBy: z.string().nullable(),
      /** Who answered, as the server knows them (InteractionResolution.answeredBy). */
      answeredBy: z.string().nullable().optional(),
      resolvedAt: z.number(),
      /** What the person's decision record keeps of it; absent on rows written before it existed. */
      decision: DecisionData.optional(),
    }),
    /**
     * Nobody answered the card by a rung of its escalation ladder: the inbox's copy takes the card as
     * it stands (how far its ladder climbed), and the inbox tells `rung.to` on each of `rung.notify`.
     */
    z.object({
      type: z.literal("card_escalated"),
      card: InboxCardData,
      rung: EscalationRung.extend({ rung: z.number().int().nonnegative(), of: z.number().int().positive() }),
    }),
    z.object({ type: z.literal("session_updated"), session: InboxSessionSummary }),
    /** The session was deleted or expired: it and its cards leave the inbox. */
    z.object({ type: z.literal("session_removed") }),
  ]),
);
export type OutboxEntry = z.infer<typeof OutboxEntry>;

/**
 * An outbox row on its way: `seq` orders one session's rows and makes applying them idempotent;
 * `entry` is the JSON text the session stored, sent as it is and parsed once, by the inbox that
 * receives it (an OutboxEntry).
 */
export const OutboxRow = lazySchema(() =>
  z.object({
    seq: z.number().int().positive(),
    entry: z
      .string()
      .transform((text, ctx) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          ctx.addIssue({ code: "custom", message: "entry is not JSON" });
          return z.NEVER;
        }
      })
      .pipe(OutboxEntry),
  }),
);
/** A row as the session stores and sends it. */
export type OutboxRow = z.input<typeof OutboxRow>;

/** A batch a session delivers to its creator's inbox. */
export const OutboxBatch = lazySchema(() =>
  z.object({ sessionId: SessionId, rows: z.array(OutboxRow).min(1).max(200) }),
);
/** A batch as the session sends it: each entry still its stored text. */
export type OutboxBatch = z.input<typeof OutboxBatch>;
/** A batch as the inbox applies it, each entry parsed once where it was received. */
export type ReceivedOutboxBatch = z.output<typeof OutboxBatch>;

/** The inbox's own events, with its own `seq` (the stream cursor), one per applied change. */
export const InboxEvent = lazySchema(() =>
  z.object({
    seq: z.number().int().positive(),
    at: z.number(),
    sessionId: SessionId,
    change: OutboxEntry,
  }),
);
export type InboxEvent = z.infer<typeof InboxEvent>;

export const InboxCard = lazySchema(() => InboxCardData.extend({ sessionId: SessionId }));
export type InboxCard = z.infer<typeof InboxCard>;

export const InboxSession = lazySchema(() =>
  InboxSessionSummary.extend({
    sessionId: SessionId,
    openCards: z.number().int().nonnegative(),
  }),
);
export type InboxSession = z.infer<typeof InboxSession>;

/** A chat account the inbox sends the person's cards to. */
export const InboxChatLink = lazySchema(() =>
  z.object({
    linkId: z.string(),
    platform: ChatPlatform,
    accountId: z.string(),
    name: z.string(),
  }),
);
export type InboxChatLink = z.infer<typeof InboxChatLink>;

/** `GET /api/inbox`: sessions (latest activity first) and every open card, oldest deadline first. */
export const InboxView = lazySchema(() =>
  z.object({
    person: z.string(),
    lastSeq: z.number().int().nonnegative(),
    sessions: z.array(InboxSession),
    cards: z.array(InboxCard),
    /** In the hello of the person's own stream only: the chat accounts cards go to. */
    chatLinks: z.array(InboxChatLink).optional(),
  }),
);
export type InboxView = z.infer<typeof InboxView>;

/**
 * Sent on the person's own inbox sockets whenever a chat account is linked or unlinked: every
 * chat account cards go to now. Whole, so a missed one is made good by the next or the hello.
 */
export const InboxChatLinksFrame = lazySchema(() =>
  z.object({
    type: z.literal("chat_links"),
    links: z.array(InboxChatLink),
  }),
);
export type InboxChatLinksFrame = z.infer<typeof InboxChatLinksFrame>;
