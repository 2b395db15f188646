// Client → server commands. The WebSocket sends them as JSON frames; the HTTP routes build the same
// objects from their bodies, so both edges share one validator and one handler.
import * as z from "zod";
import { DeadlinePolicies } from "../cards/deadline-policy";
import { MarkDeliveredCommand } from "../external/agent-messages";
import {
  OpenInteractionCommand,
  PostProgressCommand,
  WithdrawInteractionCommand,
} from "../external/external";
import { lazySchema } from "../lazy-schema";
import { MAX_MESSAGE_CHARS, MAX_TEXT_FIELD_CHARS } from "../limits";
import { InteractionId, PermissionMode, ToolCallId } from "../session/session";
import { APPROVE, BATCH_DECISIONS, DENY, SUBMIT_ANSWERS } from "./seed-names";

const RequestId = lazySchema(() => z.string().min(1).max(64).optional());

/** A question's answer: one label/text, or several labels for multi-select. */
export const AnswerValue = lazySchema(() =>
  z.union([z.string().max(MAX_TEXT_FIELD_CHARS), z.array(z.string().max(MAX_TEXT_FIELD_CHARS)).max(16)]),
);
export type AnswerValue = z.infer<typeof AnswerValue>;
export const Answers = lazySchema(() => z.record(z.string().max(2_000), AnswerValue));

export const ResumeCommand = lazySchema(() =>
  z.strictObject({
    type: z.literal("resume"),
    requestId: RequestId,
    after: z.number().int().nonnegative(),
  }),
);
export const SendMessageCommand = lazySchema(() =>
  z.strictObject({
    type: z.literal("send_message"),
    requestId: RequestId,
    text: z.string().trim().min(1, "message is empty").max(MAX_MESSAGE_CHARS),
    /** Stop the running turn first (an external agent's bridge stops its agent's), then deliver. */
    interrupt: z.boolean().optional(),
  }),
);
// The three answer commands older than `respond` (their names and meaning: seed-names.ts).
export const SubmitAnswersCommand = lazySchema(() =>
  z.strictObject({
    type: z.literal(SUBMIT_ANSWERS),
    requestId: RequestId,
    toolCallId: ToolCallId,
    answers: Answers,
    /** Notes a person added, keyed like `answers` (the SDK's `annotations[question].notes`). */
    annotations: z.record(z.string().max(2_000), z.strictObject({ notes: z.string() })).optional(),
  }),
);
export const ApproveCommand = lazySchema(() =>
  z.strictObject({
    type: z.literal(APPROVE),
    requestId: RequestId,
    toolCallId: ToolCallId,
    remember: z.boolean().optional(),
    /** The tool input as the person edited it before approving (edit-then-approve). */
    updatedInput: z.record(z.string(), z.unknown()).optional(),
  }),
);
export const DenyCommand = lazySchema(() =>
  z.strictObject({
    type: z.literal(DENY),
    requestId: RequestId,
    toolCallId: ToolCallId,
    reason: z.string().max(MAX_TEXT_FIELD_CHARS).optional(),
    /** Also stop the turn instead of letting the model continue with the denial. */
    stop: z.boolean().optional(),
  }),
);
const respondFields = {
  interactionId: lazySchema(() => InteractionId.optional()),
  toolCallId: lazySchema(() => ToolCallId.optional()),
  response: lazySchema(() => z.unknown()),
};
const oneTarget = (body: { interactionId?: string | undefined; toolCallId?: string | undefined }) =>
  (body.interactionId === undefined) !== (body.toolCallId === undefined);
const ONE_TARGET = { message: "give exactly one of interactionId and toolCallId" };

/**
 * The answer to any interaction kind, in that kind's own response shape. It addresses the
 * interaction by `interactionId` (what prompt events carry) or, for a tool call's own interaction,
 * by `toolCallId`.
 */
export const RespondCommand = lazySchema(() =>
  z
    .strictObject({ type: z.literal("respond"), requestId: RequestId, ...respondFields })
    .refine(oneTarget, ONE_TARGET),
);
/** `POST …/respond`: the command without its envelope. */
export const RespondBody = lazySchema(() => z.strictObject(respondFields).refine(oneTarget, ONE_TARGET));

/** Most cards one batch decides (a model message rarely calls more tools than this). */
export const MAX_BATCH_CARDS = 64;

/**
 * "Approve all" / "Deny all": one decision for several approval cards of one assistant message,
 * applied in one storage transaction. `toolCallIds` are the cards the device showed as open.
 */
export const DecideBatchCommand = lazySchema(() =>
  z.strictObject({
    type: z.literal("decide_batch"),
    requestId: RequestId,
    toolCallIds: z
      .array(ToolCallId)
      .min(1, "name at least one card")
      .max(MAX_BATCH_CARDS, `a batch decides at most ${MAX_BATCH_CARDS} cards`),
    decision: z.enum(BATCH_DECISIONS, {
      error: `decision must be ${BATCH_DECISIONS.map((d) => `"${d}"`).join(" or ")}`,
    }),
    reason: z.string().max(MAX_TEXT_FIELD_CHARS).optional(),
    stop: z.boolean().optional(),
  }),
);
export type DecideBatchCommand = z.infer<typeof DecideBatchCommand>;

export const CancelCommand = lazySchema(() =>
  z.strictObject({ type: z.literal("cancel"), requestId: RequestId }),
);
/**
 * Ends the delegated agent on top of the stack; its parent resumes. `frameId`, when given, must be
 * that top agent, so a device showing a stale stack cannot end the wrong one.
 */
export const EndAgentCommand = lazySchema(() =>
  z.strictObject({
    type: z.literal("end_agent"),
    requestId: RequestId,
    frameId: z.string().min(1).max(64).optional(),
  }),
);
export const SetPermissionModeCommand = lazySchema(() =>
  z.strictObject({
    type: z.literal("set_permission_mode"),
    requestId: RequestId,
    mode: PermissionMode,
  }),
);

/** Re-issues a model call that waits out an outage now, instead of at its retry time. */
export const RetryNowCommand = lazySchema(() =>
  z.strictObject({ type: z.literal("retry_now"), requestId: RequestId }),
);

/**
 * "Give me more time": moves a pending card's deadline later by its policy's step, up to its
 * maximum, on every device. An answer link may ask, as it may answer.
 */
export const ExtendDeadlineCommand = lazySchema(() =>
  z.strictObject({
    type: z.literal("extend_deadline"),
    requestId: RequestId,
    interactionId: InteractionId,
  }),
);

/**
 * The owner sets this session's own deadline policies (over the deployment's); cards opened from
 * then on follow them, cards already open keep the policy they opened with.
 */
export const SetDeadlinePoliciesCommand = lazySchema(() =>
  z.strictObject({
    type: z.literal("set_deadline_policies"),
    requestId: RequestId,
    deadlinePolicies: DeadlinePolicies,
  }),
);

export const ClientCommand = lazySchema(() =>
  z.discriminatedUnion("type", [
    ResumeCommand,
    SendMessageCommand,
    SubmitAnswersCommand,
    ApproveCommand,
    DenyCommand,
    RespondCommand,
    DecideBatchCommand,
    CancelCommand,
    EndAgentCommand,
    SetPermissionModeCommand,
    RetryNowCommand,
    ExtendDeadlineCommand,
    SetDeadlinePoliciesCommand,
    OpenInteractionCommand,
    WithdrawInteractionCommand,
    PostProgressCommand,
    MarkDeliveredCommand,
  ]),
);
export type ClientCommand = z.infer<typeof ClientCommand>;
/** Every command's `type`, in `ClientCommand`'s order: words, so naming them builds no schema. */
export const COMMAND_TYPES: ClientCommand["type"][] = [
  "resume",
  "send_message",
  SUBMIT_ANSWERS,
  APPROVE,
  DENY,
  "respond",
  "decide_batch",
  "cancel",
  "end_agent",
  "set_permission_mode",
  "retry_now",
  "extend_deadline",
  "set_deadline_policies",
  "open_interaction",
  "withdraw_interaction",
  "post_progress",
  "mark_delivered",
];

/** The commands that act on a session; `resume` only replays the event log to the socket that sent it. */
export type SessionCommand = Exclude<ClientCommand, { type: "resume" }>;
