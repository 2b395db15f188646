// Opening a session from the inbox: the person (or their inbox link) gets a share link of one of
// their own sessions, minted once per holder and reused after, so the page shows the conversation.
// The session is asked as the actor, never as its owner token, so a rotation does not break it.
import type { Hono } from "hono";
import type { OpenedInboxSession } from "../../protocol/inbox/inbox-links";
import { SessionId } from "../../protocol/session/session";
import { linkAnswerer } from "../../session/inbox-actions";
import { inboxStub } from "../../session/inbox-report/inbox-rpc";
import { sessionStub } from "../../session/session-rpc";
import { hmacKey } from "../../tokens/session-token";
import { signShareToken } from "../../tokens/share-token";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";
import { inboxActorOf } from "./inbox-answer-route";

/** The share link id the person's inbox uses for `sessionId`: the same on every open. */
async function personLinkId(secret: string, sessionId: string, person: string): Promise<string> {
  const text = new TextEncoder().encode(`inbox-open\u0000${sessionId}\u0000${person}`);
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret), text));
  return [...signature.slice(0, 16)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export function inboxOpenRoute(routes: Hono<AppEnv>): void {
  routes.post("/sessions/:sessionId/open", async (c) => {
    const actor = inboxActorOf(c);
    const sessionId = SessionId.safeParse(c.req.param("sessionId"));
    if (!sessionId.success)
      throw new HttpError("unknown_session", "No such session (ids are 32 hex characters)");
    const session = sessionStub(c.env, sessionId.data);
    const secret = c.get("config").sessionSecret;
    // An inbox link's share link carries its id, so revoking the inbox link revokes it too.
    const link =
      actor.kind === "inbox_link"
        ? {
            linkId: actor.linkId,
            role: actor.role,
            label: linkAnswerer(actor),
            expiresAt: c.get("inboxLink")?.expiresAt ?? null,
          }
        : {
            linkId: await personLinkId(secret, sessionId.data, actor.person),
            role: "answer" as const,
            label: actor.person,
            expiresAt: null,
          };
    if (actor.kind === "inbox_link") {
      // Noted before minting, so a revoke that races this open still reaches the session; only
      // for the person's own sessions, so the note never names a session the revoke cannot reach.
      const creator = await session.creator();
      if (creator === null) throw new HttpError("unknown_session", "No such session");
      if (creator !== actor.person)
        throw new HttpError("forbidden", "This session belongs to another person");
      await inboxStub(c.env, actor.person).noteOpened(actor.linkId, sessionId.data);
    }
    // The session checks the person against its creator and adds the link unless it knows it.
    const opened = await session.fromInbox(actor, { type: "open", link });
    if (!opened.ok) throw HttpError.from(opened.error);
    const token = await signShareToken(secret, sessionId.data, link);
    const response: OpenedInboxSession = {
      sessionId: sessionId.data,
      token,
      shareUrl: `${new URL(c.req.url).origin}/#/s/${sessionId.data}?token=${token}`,
    };
    return c.json(response, 201);
  });
}
