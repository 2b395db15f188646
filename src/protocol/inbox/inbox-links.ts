// Inbox links (docs/inbox.md#the-inbox): a person hands their inbox to a device that cannot sign in (a phone
// without Cloudflare Access) — `answer` to answer cards, `view` to read — with an optional expiry.
import * as z from "zod";
import { LINK_TERMS, LinkId } from "../access/access";
import { lazySchema } from "../lazy-schema";

export const InboxLinkRole = lazySchema(() => z.enum(["answer", "view"]));
export type InboxLinkRole = z.infer<typeof InboxLinkRole>;

/** `POST /api/inbox/links`. */
export const MintInboxLinkBody = lazySchema(() =>
  z.strictObject({ role: InboxLinkRole.default("answer"), ...LINK_TERMS }),
);
export type MintInboxLinkBody = z.input<typeof MintInboxLinkBody>;

export const InboxLinkView = lazySchema(() =>
  z.object({
    linkId: LinkId,
    role: InboxLinkRole,
    label: z.string().nullable(),
    createdAt: z.number(),
    expiresAt: z.number().nullable(),
    revokedAt: z.number().nullable(),
  }),
);
export type InboxLinkView = z.infer<typeof InboxLinkView>;

/** The answer to minting: the record, its token and the URL that opens the inbox with it. */
export const MintedInboxLink = lazySchema(() =>
  InboxLinkView.extend({ token: z.string(), inboxUrl: z.string() }),
);
export type MintedInboxLink = z.infer<typeof MintedInboxLink>;

/** Most inbox links one person holds (revoked ones included, as the list shows them). */
export const MAX_INBOX_LINKS = 50;

/**
 * `POST /api/inbox/sessions/:sessionId/open`: a share link of the session for the inbox's holder
 * (role `answer` for the person, the inbox link's own role through one), so the page opens it.
 */
export const OpenedInboxSession = lazySchema(() =>
  z.object({
    sessionId: z.string(),
    token: z.string(),
    shareUrl: z.string(),
  }),
);
export type OpenedInboxSession = z.infer<typeof OpenedInboxSession>;
