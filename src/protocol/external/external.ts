// The external-agent API (docs/external-agents.md#external-agents): sessions whose agent runs elsewhere, the interactions such an
// agent opens, waits on and withdraws, and the progress it reports. HTTP bodies and socket commands.
//
// Beyond the written contract: `open_interaction` also takes an optional `timeoutMs` (the card's
// deadline, default the session's interaction timeout); a stored interaction view carries
// `expiresAt` and `createdAt`; an opened interaction's answer carries `created`. Responses are each
// kind's own stored response (src/interactions/kinds/*.ts, e.g. `ApprovalResponse`, which carries
// `updatedInput` when the person edited the call before approving).
import * as z from "zod";
import { isParleyName, PARLEY_AGENT } from "../../grants/call-identity";
import { lazySchema } from "../lazy-schema";
import {
  MAX_AGENT_NAME_CHARS,
  MAX_EXTERNAL_KEY_CHARS,
  MAX_MESSAGE_CHARS,
  MAX_PROGRESS_EVENTS,
  MAX_PROGRESS_RESULT_CHARS,
  MAX_WAIT_SECONDS,
} from "../limits";
import { ExternalAgentView, InteractionId, InteractionOutcome, ToolCallId } from "../session/session";

export { ExternalAgentView };

const RequestId = lazySchema(() => z.string().min(1).max(64).optional());

/** A key chosen by the agent: printable ASCII without spaces (ids, not prose). */
export const ExternalKey = lazySchema(() =>
  z
    .string()
    .min(1, "key must not be empty")
    .max(MAX_EXTERNAL_KEY_CHARS, `key must be at most ${MAX_EXTERNAL_KEY_CHARS} characters`)
    .regex(/^[\x21-\x7e]+$/, "key must be printable ASCII without spaces"),
);

/** Longest working folder a bridge may report (Linux's PATH_MAX). */
export const MAX_CWD_CHARS = 4096;

/**
 * The folder the agent's process works in, as its bridge reports it (Claude Code's hook input,
 * the Agent SDK's options, ACP's session/new): what relative path rules resolve against.
 */
export const AgentCwd = lazySchema(() =>
  z
    .string()
    .min(1, "cwd must not be empty")
    .max(MAX_CWD_CHARS, `cwd must be at most ${MAX_CWD_CHARS} characters`)
    .refine((cwd) => cwd.startsWith("/"), "cwd must be an absolute path (starting with /)")
    .refine((cwd) => !/[\0\n\r]/.test(cwd), "cwd must be one line without NUL characters"),
);

/** `agent` in `POST /api/sessions`: a session for an agent that runs elsewhere. */
export const ExternalAgentSpec = lazySchema(() =>
  z.strictObject({
    kind: z.literal("external"),
    /** Who asks, as every device shows it ("Claude Code"); "Parley" is Parley's own loop's. */
    name: z
      .string()
      .trim()
      .min(1, "name must not be empty")
      .max(MAX_AGENT_NAME_CHARS)
      .refine(
        (name) => !isParleyName(name),
        `name "${PARLEY_AGENT}" is reserved for Parley's own agent; an agent that runs elsewhere takes another`,
      ),
    /** The agent's own session id: the same creator and key find the same session again. */
    key: ExternalKey.optional(),
    title: z.string().trim().max(200).optional(),
    /** The folder the agent works in, as its bridge knows it at start: the page says where it runs. */
    cwd: AgentCwd.optional(),
  }),
);
export type ExternalAgentSpec = z.infer<typeof ExternalAgentSpec>;

/** `POST /api/sessions` with an external agent: 201 when new, 200 when the key found it again. */
export const CreateExternalSessionResponse = lazySchema(() =>
  z.object({
    sessionId: z.string(),
    /** The owner's token, for people. */
    token: z.string(),
    shareUrl: z.string(),
    websocketUrl: z.string(),
    /** A share-link token of role `agent` (labelled with the agent's name), for the bridge. */
    agentToken: z.string(),
    /** The session's link with the agent token (what `--link` takes). */
    agentLink: z.string(),
    created: z.boolean(),
  }),
);
export type CreateExternalSessionResponse = z.infer<typeof CreateExternalSessionResponse>;

/** The same, asked with an agent key: nothing that answers (no owner token, link or socket). */
export const AgentKeySessionResponse = lazySchema(() =>
  CreateExternalSessionResponse.omit({
    token: true,
    shareUrl: true,
    websocketUrl: true,
  }),
);
export type AgentKeySessionResponse = z.infer<typeof AgentKeySessionResponse>;

const openFields = {
  /** A registered interaction kind: question, approval, form, plan, url. */
  kind: lazySchema(() => z.string().min(1).max(64)),
  /** Checked by the kind's own request schema. */
  request: lazySchema(() => z.unknown()),
  /** The agent's id for this card (Claude Code's tool_use_id): unique in the session. */
  key: lazySchema(() => ExternalKey.optional()),
  /** How long the card stays open; the session's interaction timeout when absent. */
  timeoutMs: lazySchema(() =>
    z
      .number()
      .int()
      .min(1_000)
      .max(7 * 24 * 60 * 60 * 1000)
      .optional(),
  ),
  /** For an approval: the agent's working folder, never read from the tool's own input. */
  cwd: lazySchema(() => AgentCwd.optional()),
};

/** `POST /api/sessions/:id/interactions`. */
export const OpenInteractionBody = lazySchema(() => z.strictObject(openFields));
export type OpenInteractionBody = z.infer<typeof OpenInteractionBody>;

/** Whether an interaction still waits for a person. */
export const ExternalStatus = lazySchema(() => z.enum(["pending", "resolved"]));
export type ExternalStatus = z.infer<typeof ExternalStatus>;

/** The answer to opening: 201 with `created: true`, or 200 with the existing card for a repeated key. */
export const OpenedInteraction = lazySchema(() =>
  z.object({
    interactionId: InteractionId,
    status: ExternalStatus,
    created: z.boolean(),
  }),
);
export type OpenedInteraction = z.infer<typeof OpenedInteraction>;

/** How an interaction ended, for the agent: the stored outcome, or `withdrawn` when the agent gave up. */
export const ExternalOutcome = lazySchema(() => z.union([InteractionOutcome, z.literal("withdrawn")]));
export type ExternalOutcome = z.infer<typeof ExternalOutcome>;

/** `GET /api/sessions/:id/interactions/:interactionId`. */
export const ExternalInteraction = lazySchema(() =>
  z.object({
    interactionId: InteractionId,
    kind: z.string(),
    key: z.string().nullable(),
    status: ExternalStatus,
    request: z.unknown(),
    createdAt: z.number(),
    expiresAt: z.number(),
    resolution: z
      .object({
        outcome: ExternalOutcome,
        /** The kind's own stored response; null for a timeout, a cancel or a withdrawal. */
        response: z.unknown(),
        /** The device that answered, or null (the deadline, the agent). */
        by: z.string().nullable(),
        at: z.number(),
      })
      .nullable(),
  }),
);
export type ExternalInteraction = z.infer<typeof ExternalInteraction>;

/** `?wait=S`: hold the answer up to S seconds (at most MAX_WAIT_SECONDS) until the card resolves. */
export const WaitQuery = lazySchema(() =>
  z.object({
    wait: z.coerce
      .number({ error: "wait must be a number of seconds" })
      .min(0, "wait must not be negative")
      .max(MAX_WAIT_SECONDS, `wait must be at most ${MAX_WAIT_SECONDS} seconds`)
      .optional(),
  }),
);

/** What the agent is doing, as devices show it; stored as ordinary events marked with its name. */
export const ProgressEvent = lazySchema(() =>
  z.discriminatedUnion(
    "type",
    [
      z.strictObject({
        type: z.literal("prompt"),
        text: z.string().min(1).max(MAX_MESSAGE_CHARS),
        /** The person's message (sent in Parley) this turn answers: it is shown already, so only the turn starts. */
        messageId: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/, "messageId must be a message id")
          .optional(),
      }),
      z.strictObject({ type: z.literal("text"), text: z.string().min(1).max(MAX_MESSAGE_CHARS) }),
      z.strictObject({
        type: z.literal("tool_started"),
        toolUseId: ToolCallId,
        name: z.string().min(1).max(128),
        input: z.unknown(),
      }),
      z.strictObject({
        type: z.literal("tool_finished"),
        toolUseId: ToolCallId,
        name: z.string().min(1).max(128),
        result: z.string().max(MAX_PROGRESS_RESULT_CHARS),
        isError: z.boolean(),
      }),
      z.strictObject({ type: z.literal("status"), state: z.enum(["running", "idle", "done"]) }),
    ],
    {
      error:
        'unknown progress event (expected "prompt", "text", "tool_started", "tool_finished" or "status")',
    },
  ),
);
export type ProgressEvent = z.infer<typeof ProgressEvent>;

const progressFields = {
  events: lazySchema(() =>
    z
      .array(ProgressEvent)
      .min(1, "post at least one event")
      .max(MAX_PROGRESS_EVENTS, `at most ${MAX_PROGRESS_EVENTS} events per post`),
  ),
};

/** `POST /api/sessions/:id/progress` (a body over MAX_INPUT_BYTES is refused with 413). */
export const PostProgressBody = lazySchema(() => z.strictObject(progressFields));
export type PostProgressBody = z.infer<typeof PostProgressBody>;

/** The same three operations as WebSocket commands. */
export const OpenInteractionCommand = lazySchema(() =>
  z.strictObject({
    type: z.literal("open_interaction"),
    requestId: RequestId,
    ...openFields,
  }),
);
export const WithdrawInteractionCommand = lazySchema(() =>
  z.strictObject({
    type: z.literal("withdraw_interaction"),
    requestId: RequestId,
    interactionId: InteractionId,
  }),
);
export const PostProgressCommand = lazySchema(() =>
  z.strictObject({
    type: z.literal("post_progress"),
    requestId: RequestId,
    ...progressFields,
  }),
);
export type ExternalCommand =
  | z.infer<typeof OpenInteractionCommand>
  | z.infer<typeof WithdrawInteractionCommand>
  | z.infer<typeof PostProgressCommand>;

/** The commands an `agent` link may send besides reading: everything else answers or steers. */
export const AGENT_COMMANDS = [
  "resume",
  "open_interaction",
  "withdraw_interaction",
  "post_progress",
  "mark_delivered",
] as const;
