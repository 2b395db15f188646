// The person's messages to an agent that runs elsewhere (docs/guide-api.md#messages-to-an-external-agent):
// what its bridge reads with a long-poll, the acknowledgement it sends once the agent has a message,
// and the socket command of that acknowledgement.
import * as z from "zod";
import { lazySchema } from "../lazy-schema";
import { MAX_WAIT_SECONDS } from "../limits";

/** Message ids as the session makes them (`msg_` and a random part). */
export const MessageId = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, "messageId must be a message id (letters, digits, _ and -)"),
);

/** Most messages one read answers with; a bridge reads again after the last. */
export const MAX_MESSAGES_PAGE = 50;
/** Longest bridge name a delivery names ("parley acp", "agent-sdk"). */
export const MAX_BRIDGE_CHARS = 64;

/** `GET /api/sessions/:id/messages?after=&wait=`: the messages after `after`, waiting up to `wait` s for one. */
export const AgentMessagesQuery = lazySchema(() =>
  z.object({
    after: MessageId.optional(),
    wait: z.coerce
      .number({ error: "wait must be a number of seconds" })
      .min(0, "wait must not be negative")
      .max(MAX_WAIT_SECONDS, `wait must be at most ${MAX_WAIT_SECONDS} seconds`)
      .optional(),
  }),
);

/** One message as the agent's bridge reads it. */
export const AgentMessage = lazySchema(() =>
  z.object({
    messageId: MessageId,
    text: z.string(),
    /** Stop the agent's current turn before delivering this one. */
    interrupt: z.boolean(),
    at: z.number(),
  }),
);
export type AgentMessage = z.infer<typeof AgentMessage>;

/**
 * The answer to a read: the messages in the order the person sent them, and `stopped` once the
 * person stopped the session (no message comes after that; the bridge ends).
 */
export const AgentMessagesPage = lazySchema(() =>
  z.object({
    messages: z.array(AgentMessage),
    stopped: z.boolean(),
  }),
);
export type AgentMessagesPage = z.infer<typeof AgentMessagesPage>;

const bridge = lazySchema(() => z.string().trim().min(1, "bridge must not be empty").max(MAX_BRIDGE_CHARS));

/** `POST /api/sessions/:id/messages/:messageId/delivered`: the bridge handed the message to its agent. */
export const MessageDeliveredBody = lazySchema(() => z.strictObject({ bridge }));

/** The same as a socket command (an agent's, like `post_progress`). */
export const MarkDeliveredCommand = lazySchema(() =>
  z.strictObject({
    type: z.literal("mark_delivered"),
    requestId: z.string().min(1).max(64).optional(),
    messageId: MessageId,
    bridge,
  }),
);
export type MarkDeliveredCommand = z.infer<typeof MarkDeliveredCommand>;

/** What acknowledging answers: `duplicate` when it was delivered already (the first bridge is kept). */
export const MessageDelivered = lazySchema(() =>
  z.object({
    messageId: MessageId,
    bridge: z.string(),
    duplicate: z.boolean(),
  }),
);
export type MessageDelivered = z.infer<typeof MessageDelivered>;
