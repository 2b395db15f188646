// `GET /api/channels/see/:code`: the link a chat's "See all" press minted. Spent on its first open
// while the account's link lasts, it opens the card's session in Parley with a fresh `answer` share
// link of a few minutes, minted as the chat account that pressed (so what the page answers is
// recorded as that account) and revoked with the account's link.
import type { Hono } from "hono";
import { channelStub } from "../../channels/channel-object";
import type { InboxActor } from "../../objects/contracts/session-inbox";
import { chatAnswerer } from "../../session/inbox-actions";
import { sessionStub } from "../../session/session-rpc";
import { signShareToken } from "../../tokens/share-token";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";

const SPENT =
  "This See all link was already opened or has expired, or its chat account was unlinked: each opens once, within 5 minutes. Press See all in the chat again.";

export function seeAllRoute(routes: Hono<AppEnv>): void {
  routes.get("/see/:code", async (c) => {
    const code = c.req.param("code");
    if (!/^[A-Za-z0-9_-]{32}$/.test(code)) throw new HttpError("not_found", SPENT);
    const grant = await channelStub(c.env).redeemSeeAll(code);
    if (!grant) throw new HttpError("not_found", SPENT);
    const actor: InboxActor = {
      kind: "chat",
      person: grant.person,
      platform: grant.platform,
      accountId: grant.accountId,
      name: grant.name,
    };
    const link = { ...grant.page, role: "answer" as const, label: chatAnswerer(grant) };
    // The session checks the person against its creator, as for an open from the inbox.
    const opened = await sessionStub(c.env, grant.sessionId).fromInbox(actor, { type: "open", link });
    if (!opened.ok) throw HttpError.from(opened.error);
    // An unlink while the page was opening found nothing to revoke yet: the page is revoked here.
    if (!(await channelStub(c.env).seeAllPageIsLive(link.linkId))) {
      await sessionStub(c.env, grant.sessionId).fromInbox(actor, {
        type: "revoke_opened",
        linkId: link.linkId,
      });
      throw new HttpError("not_found", SPENT);
    }
    const token = await signShareToken(c.get("config").sessionSecret, grant.sessionId, link);
    const page = `${new URL(c.req.url).origin}/#/s/${grant.sessionId}?token=${token}`;
    return c.redirect(page, 303);
  });
}
