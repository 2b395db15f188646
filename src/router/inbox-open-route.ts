// Opening a session from the inbox: the person (or their inbox link) gets a share link of one of
// their own sessions, minted once per holder and reused after, so the page shows the conversation.
import type { Hono } from "hono";
import * as z from "zod";
import { OWNER, ShareLinkView } from "../protocol/access";
import type { OpenedInboxSession } from "../protocol/inbox-links";
import { SessionId } from "../protocol/session";
import { inboxStub } from "../session/inbox-rpc";
import { sessionStub } from "../session/session-rpc";
import { hmacKey } from "../tokens/session-token";
import { signShareToken } from "../tokens/share-token";
import type { AppEnv } from "./app-env";
import { HttpError } from "./http-error";
import { linkAnswerer } from "./inbox-answer-route";
import { personOf } from "./person";

const Listed = z.object({ links: z.array(ShareLinkView) });

/** The share link id the person's inbox uses for `sessionId`: the same on every open. */
async function personLinkId(secret: string, sessionId: string, person: string): Promise<string> {
  const text = new TextEncoder().encode(`inbox-open\u0000${sessionId}\u0000${person}`);
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret), text));
  return [...signature.slice(0, 16)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export function inboxOpenRoute(routes: Hono<AppEnv>): void {
  routes.post("/sessions/:sessionId/open", async (c) => {
    const person = personOf(c);
    const inboxLink = c.get("inboxLink");
    const sessionId = SessionId.safeParse(c.req.param("sessionId"));
    if (!sessionId.success)
      throw new HttpError("unknown_session", "No such session (ids are 32 hex characters)");
    const session = sessionStub(c.env, sessionId.data);
    const creator = await session.creator();
    if (creator === null) throw new HttpError("unknown_session", "No such session");
    if (creator !== person) throw new HttpError("forbidden", "This session belongs to another person");
    const secret = c.get("config").sessionSecret;
    // An inbox link's share link carries its id, so revoking the inbox link revokes it too.
    const link = {
      linkId: inboxLink?.linkId ?? (await personLinkId(secret, sessionId.data, person)),
      role: inboxLink?.role ?? "answer",
      label: inboxLink ? linkAnswerer(inboxLink) : person,
      expiresAt: inboxLink?.expiresAt ?? null,
    } as const;
    const listed = await session.listLinks(OWNER);
    if (!listed.ok) throw HttpError.from(listed.error);
    const known = Listed.parse(listed.result).links.find((existing) => existing.linkId === link.linkId);
    if (known?.revokedAt) throw new HttpError("forbidden", "The session's owner revoked this inbox's access");
    if (!known) {
      // Noted before minting, so a revoke that races this open still reaches the session.
      if (inboxLink) await inboxStub(c.env, person).noteOpened(inboxLink.linkId, sessionId.data);
      const added = await session.addLink(link, OWNER);
      if (!added.ok) throw HttpError.from(added.error);
    }
    const token = await signShareToken(secret, sessionId.data, link);
    const opened: OpenedInboxSession = {
      sessionId: sessionId.data,
      token,
      shareUrl: `${new URL(c.req.url).origin}/#/s/${sessionId.data}?token=${token}`,
    };
    return c.json(opened, 201);
  });
}
