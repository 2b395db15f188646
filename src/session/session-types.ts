// The schema of what the Worker hands a new session's Durable Object; the shape itself is the
// object's contract (src/objects/contracts/session.ts), and the compiler holds the schema to it.
import * as z from "zod";
import { ScriptedReply } from "../model/scripted-reply";
import type { SessionInit as SessionInitShape } from "../objects/contracts/session";
import { DeadlinePolicies } from "../protocol/cards/deadline-policy";
import { PermissionMode } from "../protocol/session/session";

export const SessionInit = z.object({
  sessionId: z.string(),
  permissionMode: PermissionMode,
  systemPrompt: z.string().nullable(),
  script: z.array(ScriptedReply).nullable(),
  interactionTimeoutMs: z.number().int().positive().nullable(),
  /** The link that opens this session (with its token), for notifications sent from the object. */
  shareUrl: z.string().nullable().optional(),
  /** The configured MCP servers this session uses, by name (checked by the Worker). */
  mcpServers: z.array(z.string()).optional(),
  /** Who created the session (`personOf`), kept in its meta. */
  creator: z.string().optional(),
  /** Set for a session whose agent runs elsewhere: no model loop runs in it. */
  agent: z
    .object({
      name: z.string(),
      title: z.string().nullable(),
      key: z.string().nullable(),
      /** The agent key that created the session, if one did: "this agent" grants are bound to it. */
      agentKeyId: z.string().nullable().default(null),
      /** Where it runs, when known: its working folder and the machine whose daemon started it. */
      folder: z.string().nullable().default(null),
      machine: z.string().nullable().default(null),
    })
    .optional(),
  /** The session's own deadline policies, over the deployment's. */
  deadlinePolicies: DeadlinePolicies.optional(),
}) satisfies z.ZodType<SessionInitShape>;
