// Chat channels over HTTP: the person's link codes and linked accounts (`/api/channels/link-codes`,
// `/api/channels/links`), and each platform's webhook, which answers 404 while the platform is off.
import type { Context } from "hono";
import { Hono } from "hono";
import { channelStub } from "../../channels/channel-object";
import { ChatPlatform, LinkCodeBody, type LinkCodeResponse } from "../../protocol/reach/channels";
import { PLATFORM_NAMES } from "../../protocol/reach/platform-names";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";
import { personOf, requireInPerson } from "../person";
import { readJsonBody } from "../read-json-body";
import { seeAllRoute } from "./see-all-route";

export const channelRoutes = new Hono<AppEnv>();

/**
 * Mints a one-time link code for `person`'s account on the platform the body names (an approver's
 * when `approverId` is given), with Telegram's deep link where the bot has a name.
 */
export async function mintLinkCode(c: Context<AppEnv>, person: string, approverId?: string) {
  const { platform } = await readJsonBody(c, LinkCodeBody);
  const config = c.get("config").channels[platform];
  if (!config)
    throw new HttpError("not_found", `${PLATFORM_NAMES[platform]} is not configured on this server`);
  const minted = await channelStub(c.env).mintLinkCode(person, platform, approverId);
  if (!minted) throw new HttpError("rate_limited", "Too many unused link codes; use one or wait 10 minutes");
  const body: LinkCodeResponse = {
    ...minted,
    ...("botUserName" in config && config.botUserName
      ? { deepLink: `https://t.me/${config.botUserName}?start=${minted.code}` }
      : {}),
  };
  return c.json(body, 201);
}

// Which platforms are on, so the inbox page offers only those.
channelRoutes.get("/", (c) => {
  const on = c.get("config").channels;
  return c.json({ platforms: ChatPlatform.options.filter((platform) => on[platform] !== null) });
});

channelRoutes.post("/link-codes", async (c) => {
  requireInPerson(c, "link chat accounts");
  return mintLinkCode(c, personOf(c));
});

channelRoutes.get("/links", async (c) => {
  requireInPerson(c, "list chat accounts");
  return c.json({ links: await channelStub(c.env).listLinks(personOf(c)) });
});

channelRoutes.delete("/links/:linkId", async (c) => {
  requireInPerson(c, "unlink chat accounts");
  const link = await channelStub(c.env).unlink(personOf(c), c.req.param("linkId"));
  if (!link) throw new HttpError("not_found", "No such linked account");
  return c.json({ link });
});

/**
 * The platforms' webhooks. They carry no person, no Origin and not always JSON (each platform
 * signs its own way, and the channel object verifies that), so they are registered ahead of the
 * API's identity and body checks: CHANNEL_WEBHOOKS_EXEMPT_FROM_API_CHECKS.
 */
export const channelWebhookRoutes = new Hono<AppEnv>();

channelWebhookRoutes.post("/telegram", async (c) => {
  if (!c.get("config").channels.telegram) throw new HttpError("not_found", "No such API route");
  const answered = await channelStub(c.env).fetch(c.req.raw);
  // A copy: the API's headers are added to it, and an object's answer has immutable ones.
  return new Response(answered.body, answered);
});

channelWebhookRoutes.post("/slack", async (c) => {
  if (!c.get("config").channels.slack) throw new HttpError("not_found", "No such API route");
  const answered = await channelStub(c.env).fetch(c.req.raw);
  return new Response(answered.body, answered);
});

channelWebhookRoutes.post("/discord", async (c) => {
  if (!c.get("config").channels.discord) throw new HttpError("not_found", "No such API route");
  const answered = await channelStub(c.env).fetch(c.req.raw);
  return new Response(answered.body, answered);
});

// A chat's "See all" link: a capability of its own, opened by a browser that may hold no credential.
seeAllRoute(channelWebhookRoutes);
