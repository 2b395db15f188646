// Who may do what in a session (docs/architecture.md#access): the owner's token, and share links with a role, an
// optional expiry and a label, as the owner mints, lists and revokes them.
import * as z from "zod";
import { AGENT_COMMANDS } from "../external/external";
import { lazySchema } from "../lazy-schema";

// Kept in a module without zod so the page can apply the same rule.
export { mayDecideBeyondCard } from "./owner-decisions";

/**
 * `owner`: everything; `answer`: send messages and resolve cards; `view`: read only; `agent`: an
 * agent that runs elsewhere opens and withdraws cards and posts progress, and never answers one.
 */
export const Role = lazySchema(() => z.enum(["owner", "answer", "view", "agent"]));
export type Role = z.infer<typeof Role>;

/** The roles a share link can carry (only the session's own token is the owner's). */
export const LinkRole = lazySchema(() => Role.exclude(["owner"]));
export type LinkRole = z.infer<typeof LinkRole>;

/** Share link ids: 16 random bytes as 32 hex characters, like session ids. */
export const LinkId = lazySchema(() =>
  z.string().regex(/^[0-9a-f]{32}$/, "link id must be 32 hex characters"),
);

/** The owner token's version: 1 at creation, one more at each rotation. */
export const OwnerVersion = lazySchema(() => z.number().int().min(1).max(1_000_000));

/**
 * The person Cloudflare Access signed in who presented a credential: set by the Worker behind
 * Access only (src/router/guards/session-owner-guard.ts), so two approvals through links are two people
 * only when two identities gave them.
 */
export const SignedInAs = lazySchema(() => z.string().min(1).max(320));

/** Who presented a request: the owner, or the holder of share link `linkId`. */
export const Access = lazySchema(() =>
  z.discriminatedUnion("role", [
    // `ownerVersion`: which owner token (absent: the first); rotating it retires the older ones.
    z.strictObject({
      role: z.literal("owner"),
      linkId: z.null(),
      ownerVersion: OwnerVersion.optional(),
      signedInAs: SignedInAs.optional(),
    }),
    z.strictObject({ role: LinkRole, linkId: LinkId, signedInAs: SignedInAs.optional() }),
  ]),
);
export type Access = z.infer<typeof Access>;

export const OWNER: Access = { role: "owner", linkId: null };

/** Longest a share link may live, and its longest label. */
export const MAX_LINK_TTL_MS = 366 * 24 * 60 * 60 * 1000;
export const MAX_LINK_LABEL_CHARS = 80;

/** `POST /api/sessions/:id/links`: mint a share link. */
/** What every link a person mints may state besides its role: a lifetime and a label. */
export const LINK_TERMS = {
  /** Lifetime in seconds from now; absent for a link that lasts until revoked. */
  expiresInSeconds: lazySchema(() =>
    z
      .number()
      .int()
      .min(60)
      .max(MAX_LINK_TTL_MS / 1000)
      .optional(),
  ),
  label: lazySchema(() => z.string().trim().max(MAX_LINK_LABEL_CHARS).optional()),
};

export const MintLinkBody = lazySchema(() =>
  z.strictObject({ role: LinkRole.default("answer"), ...LINK_TERMS }),
);
export type MintLinkBody = z.input<typeof MintLinkBody>;

/** A share link as the owner sees it in the list. */
export const ShareLinkView = lazySchema(() =>
  z.object({
    linkId: LinkId,
    role: LinkRole,
    label: z.string().nullable(),
    createdAt: z.number(),
    expiresAt: z.number().nullable(),
    lastUsedAt: z.number().nullable(),
    revokedAt: z.number().nullable(),
  }),
);
export type ShareLinkView = z.infer<typeof ShareLinkView>;

/** The answer to minting: the link's record, its token and ready-made URLs. */
export const MintedLink = lazySchema(() =>
  ShareLinkView.extend({
    token: z.string(),
    shareUrl: z.string(),
    websocketUrl: z.string(),
  }),
);
export type MintedLink = z.infer<typeof MintedLink>;

/** Commands only an agent (or the owner) sends: a person's link never opens cards for itself. */
const AGENT_ONLY: readonly string[] = AGENT_COMMANDS.filter((command) => command !== "resume");

/** Commands that change the session's settings: the owner's alone. */
const OWNER_SETTINGS: readonly string[] = ["set_permission_mode", "set_deadline_policies"];

/**
 * What each role may send: `view` may only replay; `agent` may replay, open and withdraw cards and
 * post progress (so it can never approve its own request); `answer` may not change settings.
 */
export function mayRun(role: Role, command: string): boolean {
  if (role === "owner") return true;
  if (role === "view") return command === "resume";
  if (role === "agent") return (AGENT_COMMANDS as readonly string[]).includes(command);
  return !OWNER_SETTINGS.includes(command) && !AGENT_ONLY.includes(command);
}
