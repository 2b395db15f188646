// `/api/grants`: the person's grants — made, listed and revoked by the person; an `answer` inbox
// link may only make grants for one session of theirs, a `view` link nothing. Agent credentials
// are refused before they get here.
import { Hono } from "hono";
import { CreateGrantBody, type DeviceKind, type NewGrant } from "../../protocol/grants/grants";
import { inboxStub } from "../../session/inbox-report/inbox-rpc";
import { sessionStub } from "../../session/session-rpc";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";
import { personOf, requireInPerson } from "../person";
import { readJsonBody } from "../read-json-body";

export const grantRoutes = new Hono<AppEnv>();

// An inbox link's role and expiry are in its token; whether it was revoked only its inbox knows.
grantRoutes.use("*", async (c, next) => {
  const link = c.get("inboxLink");
  if (link?.role === "view") throw new HttpError("forbidden", "A view link may not see or make grants");
  if (link && !(await inboxStub(c.env, link.person).linkIsLive(link.linkId))) {
    throw new HttpError("forbidden", "This inbox link was revoked");
  }
  await next();
});

grantRoutes.post("/", async (c) => {
  const person = personOf(c);
  const body = await readJsonBody(c, CreateGrantBody);
  const link = c.get("inboxLink");
  if (link && body.scope !== "session") {
    throw new HttpError(
      "forbidden",
      `An answer link may make grants for one session only (scope "session"), not scope "${body.scope}"`,
    );
  }
  const inbox = inboxStub(c.env, person);
  // The session itself knows its creator (its inbox may not have heard of it yet).
  if (body.sessionId && (await sessionStub(c.env, body.sessionId).creator()) !== person) {
    throw new HttpError("unknown_session", `No session ${body.sessionId} of yours`);
  }
  // "This agent" is one of the person's own agent keys: a key id they never minted names no agent.
  const keyId = body.agent?.key;
  if (keyId && !(await inbox.listAgentKeys()).some((known) => known.keyId === keyId)) {
    throw new HttpError("not_found", `No agent key ${keyId} of yours (GET /api/agent-keys lists them)`);
  }
  const grant = await inbox.addGrant(
    newGrant(body, { madeBy: link ? (link.label ?? "answer link") : person, madeFrom: "api" }),
  );
  if (!grant) throw new HttpError("too_many_grants", "You hold too many grants; revoke some first");
  return c.json(grant, 201);
});

grantRoutes.get("/", async (c) => {
  requireInPerson(c, "list grants");
  return c.json({ grants: await inboxStub(c.env, personOf(c)).listGrants() });
});

grantRoutes.delete("/:grantId", async (c) => {
  requireInPerson(c, "revoke grants");
  const grantId = c.req.param("grantId");
  const revoked = await inboxStub(c.env, personOf(c)).revokeGrant(grantId);
  if (!revoked) throw new HttpError("not_found", `No grant ${grantId}`);
  return c.json(revoked);
});

/** A grant's stored terms from the API's body (the inbox caps one made from chat at a day). */
export function newGrant(
  body: Pick<
    CreateGrantBody,
    "effect" | "rule" | "scope" | "sessionId" | "agent" | "expiresInSeconds" | "reason"
  >,
  from: { madeBy: string; madeFrom: DeviceKind; fromInteraction?: string },
): NewGrant {
  const expires = body.expiresInSeconds ?? null;
  return {
    effect: body.effect,
    rule: body.rule.trim(),
    scope: body.scope,
    sessionId: body.sessionId ?? null,
    agent: body.agent ? { name: body.agent.name, key: body.agent.key ?? null } : null,
    reason: body.reason || null,
    madeBy: from.madeBy,
    madeFrom: from.madeFrom,
    fromInteraction: from.fromInteraction ?? null,
    expiresInSeconds: expires,
  };
}
