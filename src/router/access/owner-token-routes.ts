// `POST /api/sessions/:id/owner-token` (owner only): rotates the owner token. The object retires
// the presented version and closes its sockets and streams; the Worker signs the next version.
import { Hono } from "hono";
import { unwrap } from "../../objects/outcome";
import type { OwnerTokenResponse } from "../../protocol/wire/http";
import { sessionStub } from "../../session/session-rpc";
import { signSessionToken } from "../../tokens/session-token";
import type { AppEnv } from "../app-env";
import { requireOwner } from "../guards/access-guard";

export const ownerTokenRoutes = new Hono<AppEnv>();

ownerTokenRoutes.post("/", async (c) => {
  requireOwner(c, "rotate the owner token");
  const sessionId = c.get("sessionId");
  const { version } = unwrap(await sessionStub(c.env, sessionId).rotateOwnerToken(c.get("access")));
  const token = await signSessionToken(c.get("config").sessionSecret, sessionId, version);
  const url = new URL(c.req.url);
  const response: OwnerTokenResponse = { token, shareUrl: `${url.origin}/#/s/${sessionId}?token=${token}` };
  return c.json(response, 201);
});
