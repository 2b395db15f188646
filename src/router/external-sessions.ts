// Creating a session for an agent that runs elsewhere (docs/architecture.md#external-agents): its id is derived from the
// creator and the agent's key, so a bridge that restarts finds the same session without a registry.
import type { Context } from "hono";
import type { MintedLink, ShareLinkView } from "../protocol/access";
import type { CreateExternalSessionResponse } from "../protocol/external";
import type { CreateSessionBody } from "../protocol/http";
import { sessionStub } from "../session/session-rpc";
import { hmacKey, newSessionId, signSessionToken } from "../tokens/session-token";
import { signShareToken } from "../tokens/share-token";
import type { AppEnv } from "./app-env";
import { HttpError } from "./http-error";
import { personOf } from "./person";

const encoder = new TextEncoder();

/** HMAC-SHA256(secret, message), its first 16 bytes as 32 hex characters (a session or link id). */
async function derivedId(secret: string, message: string): Promise<string> {
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(message)),
  );
  return [...mac.slice(0, 16)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The id of creator `creator`'s external session keyed `key`. */
export function externalSessionId(secret: string, creator: string, key: string): Promise<string> {
  return derivedId(secret, `external\n${creator}\n${key}`);
}

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
  const sessionId = agent.key ? await externalSessionId(secret, creator, agent.key) : newSessionId();
  const token = await signSessionToken(secret, sessionId);
  const url = new URL(c.req.url);
  const shareUrl = `${url.origin}/#/s/${sessionId}?token=${token}`;
  const stub = sessionStub(c.env, sessionId);
  const created = await stub.create({
    sessionId,
    permissionMode: body.permissionMode ?? "default",
    systemPrompt: null,
    script: null,
    interactionTimeoutMs: null,
    shareUrl,
    creator,
    agent: { name: agent.name, title: agent.title || null, key: agent.key ?? null },
    ...(body.deadlinePolicies ? { deadlinePolicies: body.deadlinePolicies } : {}),
  });
  if (!created.ok) throw HttpError.from(created.error);
  const isNew = (created.result as { created: boolean } | undefined)?.created !== false;

  const linked = await stub.ensureAgentLink(
    { linkId: await derivedId(secret, `external-agent-link\n${sessionId}`), label: agent.name },
    newSessionId(),
  );
  if (!linked.ok) throw HttpError.from(linked.error);
  const link = linked.result as ShareLinkView;
  const agentToken = await signShareToken(secret, sessionId, { ...link, role: "agent" });
  const wsOrigin = `${url.protocol === "https:" ? "wss:" : "ws:"}//${url.host}`;
  const response: CreateExternalSessionResponse = {
    sessionId,
    token,
    shareUrl,
    websocketUrl: `${wsOrigin}/api/sessions/${sessionId}/ws?token=${token}`,
    agentToken,
    agentLink: `${url.origin}/#/s/${sessionId}?token=${agentToken}` satisfies MintedLink["shareUrl"],
    created: isNew,
  };
  return c.json(response, isNew ? 201 : 200);
}
