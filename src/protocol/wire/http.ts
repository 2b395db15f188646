// HTTP request and response bodies. Interaction and message routes reuse the command schemas.
import * as z from "zod";
import { DeadlinePolicies } from "../cards/deadline-policy";
import { ExternalAgentSpec } from "../external/external";
import { lazySchema } from "../lazy-schema";
import { MAX_EVENTS_PAGE, MAX_TEXT_FIELD_CHARS } from "../limits";
import { PermissionMode } from "../session/session";

/** One scripted model reply; accepted only when the deployment allows scripted sessions. */
export const ScriptedReplyInput = lazySchema(() => z.unknown());

export const CreateSessionBody = lazySchema(() =>
  z.strictObject({
    permissionMode: PermissionMode.optional(),
    systemPrompt: z
      .string()
      .max(MAX_TEXT_FIELD_CHARS * 4)
      .optional(),
    /** Scripted model replies for tests, demos and benchmarks (needs ALLOW_SCRIPTED_SESSIONS). */
    script: z.array(ScriptedReplyInput).max(1_000).optional(),
    /** Per-session interaction deadline override for tests and demos (needs ALLOW_SCRIPTED_SESSIONS). */
    interactionTimeoutMs: z.number().int().min(100).max(86_400_000).optional(),
    /** Names of configured MCP servers whose tools this session offers (absent: the default ones). */
    mcpServers: z.array(z.string().min(1).max(64)).max(32).optional(),
    /** A session for an agent that runs elsewhere (docs/external-agents.md#external-agents): no model loop runs in it. */
    agent: ExternalAgentSpec.optional(),
    /** What this session's card deadlines do, over the deployment's DEADLINE_POLICIES. */
    deadlinePolicies: DeadlinePolicies.optional(),
  }),
);
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;

export const CreateSessionResponse = lazySchema(() =>
  z.object({
    sessionId: z.string(),
    token: z.string(),
    shareUrl: z.string(),
    websocketUrl: z.string(),
  }),
);
export type CreateSessionResponse = z.infer<typeof CreateSessionResponse>;

/** `POST /api/sessions/:id/owner-token`: the new owner token (the old one no longer works). */
export const OwnerTokenResponse = lazySchema(() => z.object({ token: z.string(), shareUrl: z.string() }));
export type OwnerTokenResponse = z.infer<typeof OwnerTokenResponse>;

/** `POST /api/sessions/:id/ws-ticket`: a single-use ticket for one WebSocket or event stream URL (`?ticket=`). */
export const ConnectionTicketResponse = lazySchema(() =>
  z.object({ ticket: z.string(), expiresAt: z.number() }),
);
export type ConnectionTicketResponse = z.infer<typeof ConnectionTicketResponse>;

export const PatchSessionBody = lazySchema(() => z.strictObject({ permissionMode: PermissionMode }));

export const EventsQuery = lazySchema(() =>
  z.object({
    after: z.coerce.number().int().nonnegative().default(0),
    limit: z.coerce.number().int().min(1).max(MAX_EVENTS_PAGE).default(MAX_EVENTS_PAGE),
  }),
);

export const EventsPage = lazySchema(() =>
  z.object({
    events: z.array(z.unknown()),
    lastSeq: z.number().int().nonnegative(),
    hasMore: z.boolean(),
  }),
);
export type EventsPage = z.infer<typeof EventsPage>;
