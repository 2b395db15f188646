// Share links, owner only: mint (`POST …/links`), list with last use (`GET …/links`), revoke
// (`DELETE …/links/:linkId`, which closes the link's live sockets).
import { Hono } from "hono";
import { unwrap } from "../../objects/outcome";
import { LinkId, type MintedLink, MintLinkBody } from "../../protocol/access/access";
import { sessionStub } from "../../session/session-rpc";
import { newSessionId } from "../../tokens/session-token";
import { signShareToken } from "../../tokens/share-token";
import type { AppEnv } from "../app-env";
import { requireOwner } from "../guards/access-guard";
import { HttpError } from "../http-error";
import { readJsonBody } from "../read-json-body";

export const linkRoutes = new Hono<AppEnv>();

linkRoutes.use("*", async (c, next) => {
  requireOwner(c, "manage share links");
  await next();
});

linkRoutes.post("/", async (c) => {
  const body = await readJsonBody(c, MintLinkBody, { optional: true });
  const sessionId = c.get("sessionId");
  const link = {
    linkId: newSessionId(),
    role: body.role,
    label: body.label || null,
    expiresAt: body.expiresInSeconds === undefined ? null : Date.now() + body.expiresInSeconds * 1000,
  };
  const added = unwrap(await sessionStub(c.env, sessionId).addLink(link, c.get("access")));
  const token = await signShareToken(c.get("config").sessionSecret, sessionId, link);
  const url = new URL(c.req.url);
  const wsOrigin = `${url.protocol === "https:" ? "wss:" : "ws:"}//${url.host}`;
  const minted: MintedLink = {
    ...added,
    token,
    shareUrl: `${url.origin}/#/s/${sessionId}?token=${token}`,
    websocketUrl: `${wsOrigin}/api/sessions/${sessionId}/ws?token=${token}`,
  };
  return c.json(minted, 201);
});

linkRoutes.get("/", async (c) => {
  return c.json(unwrap(await sessionStub(c.env, c.get("sessionId")).listLinks(c.get("access"))));
});

linkRoutes.delete("/:linkId", async (c) => {
  const linkId = LinkId.safeParse(c.req.param("linkId"));
  if (!linkId.success) throw new HttpError("not_found", "No such share link (ids are 32 hex characters)");
  return c.json(
    unwrap(await sessionStub(c.env, c.get("sessionId")).revokeLink(linkId.data, c.get("access"))),
  );
});
