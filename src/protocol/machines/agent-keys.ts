// Agent keys: the one credential a bridge holds. A key can only create or find its person's
// external sessions and get back an agent link; it never reads the inbox nor answers a card.
import * as z from "zod";
import { MAX_LINK_LABEL_CHARS, MAX_LINK_TTL_MS } from "../access/access";
import { lazySchema } from "../lazy-schema";

export const AgentKeyId = lazySchema(() =>
  z.string().regex(/^[0-9a-f]{32}$/, "an agent key id is 32 hex characters"),
);

/** `POST /api/agent-keys`. */
export const MintAgentKeyBody = lazySchema(() =>
  z.strictObject({
    label: z.string().trim().min(1, "label must not be empty").max(MAX_LINK_LABEL_CHARS),
    /** Lifetime in seconds from now; absent for a key that lasts until revoked. */
    expiresInSeconds: z
      .number()
      .int()
      .min(60)
      .max(MAX_LINK_TTL_MS / 1000)
      .optional(),
  }),
);
export type MintAgentKeyBody = z.input<typeof MintAgentKeyBody>;

/** A key as the person sees it listed: never the key itself. */
export const AgentKeyView = lazySchema(() =>
  z.object({
    keyId: AgentKeyId,
    label: z.string(),
    createdAt: z.number(),
    expiresAt: z.number().nullable(),
    revokedAt: z.number().nullable(),
  }),
);
export type AgentKeyView = z.infer<typeof AgentKeyView>;

/** The answer to minting: the only time the key is shown. */
export const MintedAgentKey = lazySchema(() =>
  AgentKeyView.omit({ revokedAt: true }).extend({ key: z.string() }),
);
export type MintedAgentKey = z.infer<typeof MintedAgentKey>;

/** Most agent keys one person holds (revoked ones included, as the list shows them). */
export const MAX_AGENT_KEYS = 50;

/** Why a presented key is refused, or "live". */
export type AgentKeyCheck = "live" | "unknown" | "revoked" | "expired";

/** An agent link a key was given: the session and the link's id there. */
export interface AgentKeyLink {
  sessionId: string;
  linkId: string;
}
