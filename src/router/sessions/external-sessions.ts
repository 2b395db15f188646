// Creating a session for an agent that runs elsewhere (docs/external-agents.md#external-agents): its id is derived from the
// creator, the agent's key and the salt of the key's current incarnation (kept by the creator's
// Inbox object), so a bridge that restarts finds the same session, and one that was deleted or
// expired never comes back with its old id, tokens or links.
import type { Context } from "hono";
import { unwrap } from "../../objects/outcome";
import type { MintedLink } from "../../protocol/access/access";
import type {
  AgentKeySessionResponse,
  CreateExternalSessionResponse,
} from "../../protocol/external/external";
import type { CreateSessionBody } from "../../protocol/wire/http";
import { inboxStub } from "../../session/inbox-report/inbox-rpc";
import { sessionStub } from "../../session/session-rpc";
import { hmacKey, newSessionId, signSessionToken } from "../../tokens/session-token";
import { signShareToken } from "../../tokens/share-token";
import { revokeAgentLink } from "../access/agent-key-routes";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";
import { personOf } from "../person";

const encoder = new TextEncoder();

/** HMAC-SHA256(secret, message), its first 16 bytes as 32 hex characters (a session or link id). */
async function derivedId(secret: string, message: string): Promise<string> {
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(message)),
  );
  return [...mac.slice(0, 16)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The id of creator `creator`'s external session keyed `key`, in its incarnation salted `salt`. */
export function externalSessionId(
  secret: string,
  creator: string,
  key: string,
  salt: string,
): Promise<string> {
  return derivedId(secret, `external\n${creator}\n${key}\n${salt}`);
}

/** How many erased incarnations one request steps over before it gives up (only races get past one). */
const MAX_INCARNATION_STEPS = 3;

/** `POST /api/sessions` with `agent: { kind: "external", … }`: 201 when new, 200 when the key found it. */
export async function createExternalSession(
  c: Context<AppEnv>,
  body: CreateSessionBody & { agent: NonNullable<CreateSessionBody["agent"]> },
): Promise<Response> {
  const loopOnly = (["script", "systemPrompt", "mcpServers", "interactionTimeoutMs"] as const).filter(
    (field) => body[field] !== undefined,
  );
  if (loopOnly.length > 0) {
    throw new HttpError(
      "invalid_input",
      `${loopOnly.join(", ")}: an external session runs no model loop, so it takes none of these`,
    );
  }
  const { sessionSecret: secret } = c.get("config");
  const creator = personOf(c);
  const { agent } = body;
  const url = new URL(c.req.url);
  const inbox = inboxStub(c.env, creator);
  let salt = agent.key ? await inbox.keyedSessionSalt(agent.key) : null;
  for (let step = 1; ; step++) {
    const sessionId =
      agent.key && salt ? await externalSessionId(secret, creator, agent.key, salt) : newSessionId();
    const token = await signSessionToken(secret, sessionId);
    const created = await sessionStub(c.env, sessionId).create({
      sessionId,
      permissionMode: body.permissionMode ?? "default",
      systemPrompt: null,
      script: null,
      interactionTimeoutMs: null,
      shareUrl: `${url.origin}/#/s/${sessionId}?token=${token}`,
      creator,
      agent: {
        name: agent.name,
        title: agent.title || null,
        key: agent.key ?? null,
        agentKeyId: c.get("agentKey")?.keyId ?? null,
        folder: agent.cwd ?? null,
        machine: null,
      },
      ...(body.deadlinePolicies ? { deadlinePolicies: body.deadlinePolicies } : {}),
    });
    // The incarnation this salt names was deleted or expired: the next one gets a new salt.
    if (!created.ok && created.error.code === "unknown_session" && agent.key && salt) {
      if (step >= MAX_INCARNATION_STEPS) {
        throw new HttpError("rate_limited", "The session was re-created concurrently; try again", {
          retryAfterSeconds: 1,
        });
      }
      salt = await inbox.renewKeyedSessionSalt(agent.key, salt);
      continue;
    }
    return answerCreated(c, { sessionId, token, created: unwrap(created), agentName: agent.name });
  }
}

/** The agent link (recorded with the agent key, if one asked) and the answer to send. */
async function answerCreated(
  c: Context<AppEnv>,
  made: { sessionId: string; token: string; created: { created: boolean }; agentName: string },
): Promise<Response> {
  const { sessionSecret: secret } = c.get("config");
  const { sessionId, token } = made;
  const agentKey = c.get("agentKey");
  const isNew = made.created.created;
  const stub = sessionStub(c.env, sessionId);
  // Each agent key gets a link of its own, so revoking one key ends only what it was given.
  const derivation = `external-agent-link\n${sessionId}${agentKey ? `\n${agentKey.keyId}` : ""}`;
  const link = unwrap(
    await stub.ensureAgentLink(
      { linkId: await derivedId(secret, derivation), label: made.agentName },
      newSessionId(),
    ),
  );
  if (agentKey) {
    const live = await inboxStub(c.env, agentKey.person).noteAgentLink(agentKey.keyId, {
      sessionId,
      linkId: link.linkId,
    });
    // The key was revoked while this request ran: its revocation may have missed this link.
    if (!live) {
      await revokeAgentLink(c.env, sessionId, link.linkId);
      throw new HttpError("forbidden", "This agent key was revoked");
    }
  }
  const agentToken = await signShareToken(secret, sessionId, { ...link, role: "agent" });
  const url = new URL(c.req.url);
  const agentLink = `${url.origin}/#/s/${sessionId}?token=${agentToken}` satisfies MintedLink["shareUrl"];
  const wsOrigin = `${url.protocol === "https:" ? "wss:" : "ws:"}//${url.host}`;
  // An agent key never gets what answers: no owner token, no owner's link, no owner's socket.
  const response: CreateExternalSessionResponse | AgentKeySessionResponse = agentKey
    ? { sessionId, agentToken, agentLink, created: isNew }
    : {
        sessionId,
        token,
        shareUrl: `${url.origin}/#/s/${sessionId}?token=${token}`,
        websocketUrl: `${wsOrigin}/api/sessions/${sessionId}/ws?token=${token}`,
        agentToken,
        agentLink,
        created: isNew,
      };
  return c.json(response, isNew ? 201 : 200);
}
