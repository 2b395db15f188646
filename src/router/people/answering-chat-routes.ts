// `/api/people/answering/:inviter/chat`: an invited approver links chat accounts of their own, as the
// person links theirs (a one-time code sent to the bot in a direct message), from their answering
// page. Each such account answers as the approver, in the inviter's inbox, and is listed and
// unlinked only by that approver — never among the inviter's own accounts.
import { Hono } from "hono";
import { channelStub } from "../../channels/channel-object";
import { ChatPlatform } from "../../protocol/reach/channels";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";
import { mintLinkCode } from "../reach/channel-routes";
import { admit, inviterOf } from "./answering-routes";

export const answeringChatRoutes = new Hono<AppEnv>();

answeringChatRoutes.post("/:inviter/chat/link-codes", async (c) => {
  const { actor } = await admit(c, inviterOf(c));
  return mintLinkCode(c, actor.person, actor.approverId);
});

// With the platforms that are on, which `GET /api/channels` tells only the person's own credentials.
answeringChatRoutes.get("/:inviter/chat/links", async (c) => {
  const { actor } = await admit(c, inviterOf(c));
  const on = c.get("config").channels;
  return c.json({
    links: await channelStub(c.env).listLinks(actor.person, actor.approverId),
    platforms: ChatPlatform.options.filter((platform) => on[platform] !== null),
  });
});

answeringChatRoutes.delete("/:inviter/chat/links/:linkId", async (c) => {
  const { actor } = await admit(c, inviterOf(c));
  const link = await channelStub(c.env).unlink(actor.person, c.req.param("linkId"), actor.approverId);
  if (!link) throw new HttpError("not_found", "No such linked account");
  return c.json({ link });
});
