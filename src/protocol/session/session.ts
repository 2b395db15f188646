// Session-level vocabulary shared by the server and every client: statuses, modes, outcomes, ids.
import * as z from "zod";
import { ApprovalCount } from "../cards/approval-count";
import { CardDeadlineTerms } from "../cards/deadline-policy";
import { Decider } from "../cards/decider";
import { lazySchema } from "../lazy-schema";
import { AgentFrameView, FRAME_MARK_FIELDS } from "./agents";

export const SessionStatus = lazySchema(() => z.enum(["idle", "running", "awaiting_input", "failed"]));
export type SessionStatus = z.infer<typeof SessionStatus>;

/** Per-session permission mode (docs/architecture.md#interactions-and-permission-modes); changeable mid-session, effective on the next tool call. */
export const PermissionMode = lazySchema(() =>
  z.enum(["default", "acceptEdits", "plan", "bypassPermissions"]),
);
export type PermissionMode = z.infer<typeof PermissionMode>;

export const InteractionStatus = lazySchema(() =>
  z.enum(["pending", "answered", "approved", "denied", "timed_out", "cancelled"]),
);
export type InteractionStatus = z.infer<typeof InteractionStatus>;

/** How an interaction ended; every status but `pending`. */
export const InteractionOutcome = lazySchema(() => InteractionStatus.exclude(["pending"]));
export type InteractionOutcome = z.infer<typeof InteractionOutcome>;

/** Session ids are 32 lowercase hex characters (128 random bits). */
export const SessionId = lazySchema(() =>
  z.string().regex(/^[0-9a-f]{32}$/, "session id must be 32 hex characters"),
);

/** Tool call ids come from the model (`toolu_…`) or the scripted model; bounded and printable. */
export const ToolCallId = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\w-]+$/, "invalid tool call id"),
);

/**
 * An interaction's own id. A tool call's own interaction (AskUserQuestion, an approval) shares its
 * tool_use id; forms a tool opens mid-run (`ctx.elicit`) get ids of their own, derived from it.
 */
export const InteractionId = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(160)
    .regex(/^[\w-]+$/, "invalid interaction id"),
);

/** Device ids are chosen by clients for receipts only; never trusted for authorization. */
export const DeviceId = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(64)
    .regex(/^[\w.-]+$/, "invalid device id"),
);

/** A pending or resolved interaction as clients see it (hello snapshot and prompt events). */
export const InteractionView = lazySchema(() =>
  z.object({
    toolCallId: ToolCallId,
    /** Absent on events stored before interactions had ids of their own: the id is then `toolCallId`. */
    interactionId: InteractionId.optional(),
    kind: z.string(),
    toolName: z.string(),
    request: z.unknown(),
    status: InteractionStatus,
    createdAt: z.number(),
    expiresAt: z.number(),
    /**
     * Set when a chat message the person sends while it is open answers it (its kind's `chatReply`),
     * so the page keeps the message box open; absent on events stored before it was sent.
     */
    readsChat: z.literal(true).optional(),
    /** What the deadline does and how far it may be extended; absent for cards from before policies. */
    deadlinePolicy: CardDeadlineTerms.optional(),
    /** Set on an approval a deployment's rule says needs several distinct approvals: how many so far. */
    approvals: ApprovalCount.optional(),
    /** The agent whose tool call asked (FrameMark); absent from older servers. */
    ...FRAME_MARK_FIELDS,
  }),
);
export type InteractionView = z.infer<typeof InteractionView>;

/** Which batch decision resolved a card, and how many cards it decided. */
export const BatchMark = lazySchema(() => z.object({ id: z.string(), size: z.number().int().positive() }));
export type BatchMark = z.infer<typeof BatchMark>;

/** How an interaction ended, as every device shows it (`interaction_resolved`, and a 409's winner). */
export const InteractionResolution = lazySchema(() =>
  z.object({
    toolCallId: ToolCallId,
    interactionId: InteractionId.optional(),
    kind: z.string(),
    outcome: InteractionOutcome,
    response: z.unknown(),
    resolvedBy: z.string().nullable(),
    /**
     * Who gave the answer, as the server knows them: the person's identity, or the share or inbox
     * link's label and id (never a name the client chose); absent when nobody answered it (a
     * timeout) or on events stored before it was recorded.
     */
    answeredBy: z.string().nullable().optional(),
    /** Who decided, structured (src/protocol/cards/decider.ts); absent on events stored before deciders. */
    decider: Decider.optional(),
    resolvedAt: z.number(),
    /** Set when one "Approve all" / "Deny all" decided this card with `size - 1` others. */
    batch: BatchMark.optional(),
    /**
     * How it ended in the kind's own words ("Plan approved · edits run without asking"), which a
     * receipt opens with; absent on events stored before kinds worded them.
     */
    receipt: z.string().optional(),
    /** Set when the external agent that opened the card withdrew it (`outcome` is then `cancelled`). */
    withdrawn: z.literal(true).optional(),
    /** The agent whose tool call asked (FrameMark); absent on events stored before marks. */
    ...FRAME_MARK_FIELDS,
  }),
);
export type InteractionResolution = z.infer<typeof InteractionResolution>;

/** The agent of an external session (docs/external-agents.md#external-agents), as its snapshot (and so every `hello`) names it. */
export const ExternalAgentView = lazySchema(() =>
  z.object({
    kind: z.literal("external"),
    name: z.string(),
    title: z.string().nullable(),
    /** The folder it works in, as its bridge reported it; absent while unknown. Agent-given text. */
    folder: z.string().optional(),
    /** The machine it runs on, for a session a machine's daemon started (its label); absent otherwise. */
    machine: z.string().optional(),
  }),
);
export type ExternalAgentView = z.infer<typeof ExternalAgentView>;

/** The state a client needs on (re)connect before replaying events. */
export const SessionSnapshot = lazySchema(() =>
  z.object({
    sessionId: SessionId,
    status: SessionStatus,
    mode: PermissionMode,
    lastSeq: z.number().int().nonnegative(),
    pending: z.array(InteractionView),
    queued: z.number().int().nonnegative(),
    /** Delegated agents holding the conversation, bottom first; empty when the main agent has it. */
    stack: z.array(AgentFrameView),
    model: z.string(),
    demo: z.boolean(),
    interactionTimeoutMs: z.number().int().positive(),
    serverTime: z.number(),
    createdAt: z.number(),
    /** When the session is erased if nothing happens in it before (retention). */
    expiresAt: z.number().optional(),
    /** Set while the turn waits out a model outage: when the call is re-issued, and why. */
    modelRetry: z
      .object({ attempt: z.number().int(), retryAt: z.number(), code: z.string() })
      .nullable()
      .optional(),
    /** Set for a session whose agent runs elsewhere: no model loop runs in it. */
    agent: ExternalAgentView.optional(),
  }),
);
export type SessionSnapshot = z.infer<typeof SessionSnapshot>;
