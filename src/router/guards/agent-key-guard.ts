// The one place an agent key is recognised: before identity or any route, so every route, also
// one added later, answers 403 to it except the two things a key is for — creating or finding its
// person's external sessions (`POST /api/sessions` with `agent`, checked there) and a `parley
// daemon`'s machine socket (`GET /api/machines/connect`).
import { createMiddleware } from "hono/factory";
import { logSecurityEvent } from "../../log/security-log";
import { AGENT_KEY_PREFIX } from "../../protocol/machines/agent-key-words";
import { inboxStub } from "../../session/inbox-report/inbox-rpc";
import { readAgentKey } from "../../tokens/agent-key";
import type { AppEnv } from "../app-env";
import { bearer } from "../credentials/bearer";
import { HttpError } from "../http-error";

export const AGENT_KEY_ONLY =
  "An agent key can only create or find its person's external sessions (POST /api/sessions with agent); it never reads the inbox nor answers";

export const guardAgentKeys = createMiddleware<AppEnv>(async (c, next) => {
  c.set("agentKey", null);
  const header = bearer(c.req.header("authorization"));
  const inUrl = [c.req.query("token"), c.req.query("ticket")].some((value) =>
    value?.startsWith(AGENT_KEY_PREFIX),
  );
  if (!header?.startsWith(AGENT_KEY_PREFIX) && !inUrl) return next();
  const keyRoute =
    (c.req.method === "POST" && c.req.path === "/api/sessions") ||
    (c.req.method === "GET" && c.req.path === "/api/machines/connect");
  if (inUrl || !keyRoute) {
    logSecurityEvent("credential_refused", { reason: "agent_key_route" });
    throw new HttpError("forbidden", AGENT_KEY_ONLY);
  }
  const claims = await readAgentKey(c.get("config").sessionSecret, header as string);
  if (!claims) {
    logSecurityEvent("credential_refused", { reason: "agent_key" });
    throw new HttpError("forbidden", "This is not an agent key of this Parley");
  }
  const check = await inboxStub(c.env, claims.person).checkAgentKey(claims.keyId, claims.hash);
  if (check !== "live") {
    logSecurityEvent("credential_refused", { reason: `agent_key_${check}` });
    throw new HttpError(
      "forbidden",
      {
        unknown: "This is not an agent key of this Parley",
        revoked: "This agent key was revoked",
        expired: "This agent key has expired",
      }[check],
    );
  }
  c.set("agentKey", { person: claims.person, keyId: claims.keyId });
  c.set("person", claims.person);
  c.set("inboxLink", null);
  await next();
});
