// `/api/agent-keys`: the person mints, lists and revokes the keys their agents' bridges hold.
// Only the person in person may; revoking a key also revokes every agent link it was given.
import { Hono } from "hono";
import { AgentKeyId, MintAgentKeyBody, type MintedAgentKey } from "../../protocol/machines/agent-keys";
import { describeZodError } from "../../protocol/wire/errors";
import { inboxStub } from "../../session/inbox-report/inbox-rpc";
import { sessionStub } from "../../session/session-rpc";
import { signAgentKey } from "../../tokens/agent-key";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";
import { machinesStub } from "../machines/machines-stub";
import { personOf, requireInPerson } from "../person";
import { readJsonBody } from "../read-json-body";

export const agentKeyRoutes = new Hono<AppEnv>();

agentKeyRoutes.post("/", async (c) => {
  requireInPerson(c, "mint agent keys");
  const person = personOf(c);
  const body = await readJsonBody(c, MintAgentKeyBody);
  const keyId = [...crypto.getRandomValues(new Uint8Array(16))]
    .map((byte) => byte.toString(16).padStart(2, "0"))
    .join("");
  const { key, hash } = await signAgentKey(c.get("config").sessionSecret, person, keyId);
  const expiresAt = body.expiresInSeconds ? Date.now() + body.expiresInSeconds * 1000 : null;
  const record = await inboxStub(c.env, person).addAgentKey({ keyId, label: body.label, hash, expiresAt });
  if (!record) throw new HttpError("too_many_links", "You hold too many agent keys; revoke some first");
  const minted: MintedAgentKey = {
    keyId: record.keyId,
    label: record.label,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
    key,
  };
  return c.json(minted, 201);
});

agentKeyRoutes.get("/", async (c) => {
  requireInPerson(c, "list agent keys");
  return c.json({ keys: await inboxStub(c.env, personOf(c)).listAgentKeys() });
});

agentKeyRoutes.delete("/:keyId", async (c) => {
  requireInPerson(c, "revoke agent keys");
  const keyId = AgentKeyId.safeParse(c.req.param("keyId"));
  if (!keyId.success) throw new HttpError("invalid_input", describeZodError(keyId.error));
  const revoked = await inboxStub(c.env, personOf(c)).revokeAgentKey(keyId.data);
  if (!revoked) throw new HttpError("not_found", "No such agent key");
  await Promise.all(revoked.links.map((link) => revokeAgentLink(c.env, link.sessionId, link.linkId)));
  // A daemon holding the key is disconnected at once and takes no more work.
  await machinesStub(c.env, personOf(c)).revoke(keyId.data);
  return c.json(revoked.key);
});

/**
 * Revokes one agent link and closes its sockets. A session that is gone took its links with it;
 * any other failure is an error, never a silent success.
 */
export async function revokeAgentLink(env: Env, sessionId: string, linkId: string): Promise<void> {
  const outcome = await sessionStub(env, sessionId).revokeAgentLink(linkId);
  if (!outcome.ok && outcome.error.code !== "unknown_session") throw HttpError.from(outcome.error);
}
