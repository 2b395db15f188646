// A person's grants: standing allow or deny rules in Claude Code's syntax,
// scoped to one session, one agent or all of the person's sessions, applied before a card opens.
import * as z from "zod";
import { isParleyName, PARLEY_AGENT } from "../../grants/call-identity";
import { parseRule } from "../../grants/grant-rule";
import { DeviceKind } from "../cards/decider";
import { lazySchema } from "../lazy-schema";
import { MAX_TEXT_FIELD_CHARS } from "../limits";
import { AgentKeyId } from "../machines/agent-keys";
import { SessionId } from "../session/session";

export const GrantEffect = lazySchema(() => z.enum(["allow", "deny"]));
export type GrantEffect = z.infer<typeof GrantEffect>;

export const GrantScope = lazySchema(() => z.enum(["session", "agent", "all"]));
export type GrantScope = z.infer<typeof GrantScope>;

/** The expiries a grant may have, in seconds: an hour, a day, a week; none is "until revoked". */
export const GRANT_EXPIRIES = [3_600, 86_400, 604_800] as const;
/** Longest a grant made from a chat message may last. */
export const CHAT_GRANT_MAX_SECONDS = 86_400;
/** Most grants one person holds (expired and revoked ones kept for the list included). */
export const MAX_GRANTS = 500;
/** How long an expired or revoked grant stays listed, greyed. */
export const ENDED_GRANT_LISTED_MS = 7 * 86_400_000;

export { DeviceKind } from "../cards/decider";

/**
 * An agent a grant is scoped to: an outside agent by the id of its agent key (its name is only a
 * label: any agent can call itself anything), or Parley's own loop by the name "Parley", no key.
 */
export const GrantAgent = lazySchema(() =>
  z
    .strictObject({
      name: z.string().trim().min(1, "agent.name must not be empty").max(128),
      key: AgentKeyId.optional(),
    })
    .superRefine((agent, ctx) => {
      const own = isParleyName(agent.name);
      if (own && agent.key !== undefined)
        ctx.addIssue({
          code: "custom",
          path: ["key"],
          message: `"${PARLEY_AGENT}" is Parley's own loop, which has no agent key; leave key out`,
        });
      if (!own && agent.key === undefined)
        ctx.addIssue({
          code: "custom",
          path: ["key"],
          message: `an outside agent is known by its agent key, not its name: give key, the keyId from GET /api/agent-keys (or name "${PARLEY_AGENT}" for Parley's own loop)`,
        });
    })
    .transform((agent) => (agent.key === undefined ? { ...agent, name: PARLEY_AGENT } : agent)),
);
export type GrantAgent = z.infer<typeof GrantAgent>;

/** A rule in Claude Code's syntax; the refusal names what is wrong. */
export const GrantRuleText = lazySchema(() =>
  z.string().superRefine((text, ctx) => {
    const parsed = parseRule(text);
    if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.message });
  }),
);

/** What a grant says, as a card's answer or `POST /api/grants` sends it. */
export const GrantTerms = lazySchema(() =>
  z.strictObject({
    effect: GrantEffect.default("allow"),
    rule: GrantRuleText,
    scope: GrantScope,
    expiresInSeconds: z
      .number()
      .int()
      .refine((seconds) => (GRANT_EXPIRIES as readonly number[]).includes(seconds), {
        message: `expiresInSeconds must be ${GRANT_EXPIRIES.join(", ")} (an hour, a day, a week), or absent for until revoked`,
      })
      .optional(),
    reason: z.string().trim().max(MAX_TEXT_FIELD_CHARS).optional(),
  }),
);
export type GrantTerms = z.infer<typeof GrantTerms>;

/** A grant made from an approval card as it is approved: always an allow. */
export const CardGrant = lazySchema(() => GrantTerms.omit({ effect: true, reason: true }));
export type CardGrant = z.infer<typeof CardGrant>;

/** `POST /api/grants`: the terms, and the session or agent the scope names. */
export const CreateGrantBody = lazySchema(() =>
  GrantTerms.extend({
    sessionId: SessionId.optional(),
    agent: GrantAgent.optional(),
  }).superRefine((body, ctx) => {
    if (body.scope === "session" && !body.sessionId)
      ctx.addIssue({ code: "custom", path: ["sessionId"], message: 'scope "session" needs sessionId' });
    if (body.scope !== "session" && body.sessionId)
      ctx.addIssue({
        code: "custom",
        path: ["sessionId"],
        message: `scope "${body.scope}" takes no sessionId`,
      });
    if (body.scope === "agent" && !body.agent)
      ctx.addIssue({ code: "custom", path: ["agent"], message: 'scope "agent" needs agent: { name, key? }' });
    if (body.scope !== "agent" && body.agent)
      ctx.addIssue({ code: "custom", path: ["agent"], message: `scope "${body.scope}" takes no agent` });
  }),
);
export type CreateGrantBody = z.infer<typeof CreateGrantBody>;

/** A grant as the person's inbox keeps and lists it. */
export const GrantView = lazySchema(() =>
  z.object({
    grantId: z.string(),
    effect: GrantEffect,
    rule: z.string(),
    /** What the rule matches, in words (the preview a card shows). */
    matches: z.string(),
    scope: GrantScope,
    sessionId: z.string().nullable(),
    agent: z.object({ name: z.string(), key: z.string().nullable() }).nullable(),
    reason: z.string().nullable(),
    /** Who made it (the person, or a link's label) and from which kind of device. */
    madeBy: z.string(),
    madeFrom: DeviceKind,
    /** The card it was made from, when it was. */
    fromInteraction: z.string().nullable(),
    createdAt: z.number(),
    expiresAt: z.number().nullable(),
    revokedAt: z.number().nullable(),
    uses: z.number().int().nonnegative(),
    lastUsedAt: z.number().nullable(),
    /** False once expired or revoked: listed greyed for a week, never applied. */
    active: z.boolean(),
  }),
);
export type GrantView = z.infer<typeof GrantView>;

/** A new grant, as the inbox is asked to keep it (checked again there: it crosses an RPC). */
export const NewGrant = lazySchema(() =>
  z.object({
    effect: GrantEffect,
    rule: GrantRuleText,
    scope: GrantScope,
    sessionId: z.string().nullable(),
    agent: z.object({ name: z.string(), key: z.string().nullable() }).nullable(),
    reason: z.string().nullable(),
    madeBy: z.string(),
    madeFrom: DeviceKind,
    fromInteraction: z.string().nullable(),
    expiresInSeconds: z.number().int().positive().nullable(),
  }),
);
export type NewGrant = z.infer<typeof NewGrant>;

/**
 * The call a session asks about, and where it runs: the agent is Parley's own loop (`own`) or an
 * outside agent known by its agent key's id (null when its session was created without one).
 */
export interface GrantQuery {
  sessionId: string;
  agent: { name: string; key: string | null; own: boolean };
  /** `cwd`: the agent's working folder as its bridge reported it, for relative path rules. */
  calls: { toolName: string; input: unknown; cwd?: string | null }[];
}

/** What a grant decided for one call; null for a call no grant covers. */
export interface GrantVerdict {
  effect: GrantEffect;
  grantId: string;
  rule: string;
  reason: string | null;
}
