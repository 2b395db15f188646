// The Worker's HTTP surface: session creation, token checks, and routing into each session's
// Durable Object. Errors from anywhere become `{ error: { code, message } }` here and only here.
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { secureHeaders } from "hono/secure-headers";
import { logSecurityEvent } from "../log/security-log";
import { selectMcpServers } from "../mcp/mcp-config";
import { ScriptedReply } from "../model/scripted-reply";
import type { NotifyInfo } from "../protocol/reach/notify";
import { SessionId } from "../protocol/session/session";
import { describeZodError } from "../protocol/wire/errors";
import { CreateSessionBody, type CreateSessionResponse } from "../protocol/wire/http";
import { sessionStub } from "../session/session-rpc";
import { newSessionId, signSessionToken } from "../tokens/session-token";
import { checkAccessToken } from "../tokens/share-token";
import { agentKeyRoutes } from "./access/agent-key-routes";
import { linkRoutes } from "./access/link-routes";
import { ownerTokenRoutes } from "./access/owner-token-routes";
import { signInRoutes } from "./access/sign-in-route";
import type { AppEnv } from "./app-env";
import { bearer, timingSafeEqual } from "./credentials/bearer";
import { AGENT_KEY_ONLY, guardAgentKeys } from "./guards/agent-key-guard";
import { requestConfig } from "./guards/config-guard";
import { refuseCrossSite } from "./guards/cross-site-guard";
import { limitSessionCreation } from "./guards/session-creation-limit";
import { requireOwnSession } from "./guards/session-owner-guard";
import { HttpError } from "./http-error";
import { decisionRoutes } from "./inbox/decision-routes";
import { grantRoutes } from "./inbox/grant-routes";
import { inboxRoutes } from "./inbox/inbox-routes";
import { machineRoutes } from "./machines/machine-routes";
import { sessionStopRoute } from "./machines/session-stop-route";
import { peopleRoutes } from "./people/people-routes";
import { identifyPerson, personOf } from "./person";
import { channelRoutes, channelWebhookRoutes } from "./reach/channel-routes";
import { emailCardRoutes, emailRoutes } from "./reach/email-routes";
import { pushAnswerRoutes } from "./reach/push-answer-route";
import { readJsonBody } from "./read-json-body";
import { externalRoutes } from "./sessions/external-routes";
import { createExternalSession } from "./sessions/external-sessions";
import { sessionRoutes } from "./sessions/session-routes";
import { checkTicket, ticketRoutes } from "./tickets/connection-ticket";

export const app = new Hono<AppEnv>();

/** The Worker's Email Routing handler, loaded with the router (src/index.ts): it answers as its routes do. */
export { receiveReply } from "../email/email-reply";

// INVARIANT: a flag that only suppresses a repeated log line; a new isolate logs it again.
let warnedOpen = false;

// The page's own headers come from Workers Assets (web/static/_headers); API answers are JSON that
// nothing should ever render, frame or sniff.
app.use(
  "/api/*",
  secureHeaders({
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    referrerPolicy: "no-referrer",
    xFrameOptions: "DENY",
  }),
);

app.use("/api/*", refuseCrossSite);

app.use("/api/*", async (c, next) => {
  const config = requestConfig(c.env, c.req.raw);
  if (!warnedOpen && !config.gatewayToken && !config.access) {
    warnedOpen = true;
    console.warn(
      "Parley: neither GATEWAY_TOKEN nor Cloudflare Access is set — only requests from this machine are served, and none of them is a person (no inbox).",
    );
  }
  c.set("config", config);
  await next();
});

app.use("/api/*", guardAgentKeys);

// The platforms' webhooks carry no person (each platform signs its own requests, verified in the
// channel object), so they answer before identity; refuseCrossSite lets them through by name
// (PLATFORM_WEBHOOKS there), as they carry no Origin and Slack posts a form.
app.route("/api/channels", channelWebhookRoutes);

// A sign-in code is its own credential (src/router/access/sign-in-route.ts), traded before identity.
app.route("/api/sign-in", signInRoutes);

// A notification's answer token is its own credential (src/router/reach/push-answer-route.ts): the
// service worker that sends it holds no other.
app.route("/api/push", pushAnswerRoutes);

// A card's email link is its own credential, like a notification's (src/router/reach/email-routes.ts).
app.route("/api/email/cards", emailCardRoutes);

app.use("/api/*", identifyPerson);

app.post("/api/sessions", async (c) => {
  const config = c.get("config");
  if (c.get("agentKey")) {
    // The key was checked (agent-key-guard.ts); all it may create is its person's external sessions.
    await limitSessionCreation(c.env, c.req.header("cf-connecting-ip"));
    const body = await readJsonBody(c, CreateSessionBody);
    if (!body.agent) throw new HttpError("forbidden", AGENT_KEY_ONLY);
    return createExternalSession(c, { ...body, agent: body.agent });
  }
  // An open gateway in front of a paid API key lets anyone spend it: refuse unless deliberately allowed.
  if (!config.gatewayToken && config.anthropic && !config.allowOpenGateway) {
    throw new HttpError(
      "misconfigured",
      "ANTHROPIC_API_KEY is set but GATEWAY_TOKEN is not; set GATEWAY_TOKEN (or ALLOW_OPEN_GATEWAY=true to accept the risk)",
    );
  }
  if (config.gatewayToken) {
    const presented = bearer(c.req.header("authorization"));
    if (!presented)
      throw new HttpError("unauthorized", "Creating a session needs Authorization: Bearer <GATEWAY_TOKEN>");
    if (!timingSafeEqual(presented, config.gatewayToken)) {
      logSecurityEvent("credential_refused", { reason: "gateway_token" });
      throw new HttpError("forbidden", "Wrong gateway token");
    }
  }
  await limitSessionCreation(c.env, c.req.header("cf-connecting-ip"));
  const body = await readJsonBody(c, CreateSessionBody, { optional: true });
  if (body.agent) return createExternalSession(c, { ...body, agent: body.agent });
  if ((body.script || body.interactionTimeoutMs) && !config.allowScriptedSessions) {
    throw new HttpError(
      "forbidden",
      "script and interactionTimeoutMs need ALLOW_SCRIPTED_SESSIONS=true on the server",
    );
  }
  const script = body.script ? ScriptedReply.array().safeParse(body.script) : null;
  if (script && !script.success)
    throw new HttpError("invalid_input", `script: ${describeZodError(script.error)}`);

  const mcpServers = selectMcpServers(config.mcpServers, body.mcpServers);
  if (!mcpServers.ok) throw new HttpError("invalid_input", `mcpServers: ${mcpServers.message}`);
  const sessionId = newSessionId();
  const token = await signSessionToken(config.sessionSecret, sessionId);
  const url = new URL(c.req.url);
  const shareUrl = `${url.origin}/#/s/${sessionId}?token=${token}`;
  const created = await sessionStub(c.env, sessionId).create({
    sessionId,
    permissionMode: body.permissionMode ?? "default",
    systemPrompt: body.systemPrompt ?? null,
    script: script?.data ?? null,
    interactionTimeoutMs: body.interactionTimeoutMs ?? null,
    shareUrl,
    mcpServers: mcpServers.names,
    // No person on a gateway with no credential (loopback only): such a session reports to no inbox.
    ...(c.get("person") ? { creator: personOf(c) } : {}),
    ...(body.deadlinePolicies ? { deadlinePolicies: body.deadlinePolicies } : {}),
  });
  if (!created.ok) throw HttpError.from(created.error);

  const wsOrigin = `${url.protocol === "https:" ? "wss:" : "ws:"}//${url.host}`;
  const response: CreateSessionResponse = {
    sessionId,
    token,
    shareUrl,
    websocketUrl: `${wsOrigin}/api/sessions/${sessionId}/ws?token=${token}`,
  };
  return c.json(response, 201);
});

app.get("/api/notify", (c) => {
  const push = c.get("config").push;
  const info: NotifyInfo = {
    vapidPublicKey: push?.publicKey ?? null,
    reason: push
      ? null
      : "This server has no VAPID keys (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY), so it cannot send Web Push.",
  };
  return c.json(info);
});

const authorizeSession = createMiddleware<AppEnv>(async (c, next) => {
  const id = SessionId.safeParse(c.req.param("id"));
  if (!id.success) throw new HttpError("unknown_session", "No such session (ids are 32 hex characters)");
  // Browsers cannot set headers on a WebSocket or an EventSource, so only those two may carry a
  // credential in their URL (URLs end up in logs): best a single-use ticket, else the token;
  // every other route takes the token as a bearer header.
  const connection = c.req.path.endsWith("/ws") || c.req.path.endsWith("/events/stream");
  const ticket = connection && !c.req.header("authorization") ? c.req.query("ticket") : undefined;
  if (ticket !== undefined) {
    const admitted = await checkTicket(c.get("config").sessionSecret, id.data, ticket, Date.now());
    if (!admitted) {
      logSecurityEvent("credential_refused", { sessionId: id.data, reason: "ticket" });
      throw new HttpError("forbidden", "Unknown or expired connection ticket; ask for a new one");
    }
    c.set("sessionId", id.data);
    c.set("access", admitted.access);
    c.set("ticket", admitted);
    return next();
  }
  const fromQuery = connection ? c.req.query("token") : undefined;
  const token = bearer(c.req.header("authorization")) ?? fromQuery;
  if (!token) {
    throw new HttpError(
      "unauthorized",
      c.req.query("token")
        ? "Send the session token as Authorization: Bearer (?token= is accepted only for the WebSocket and the event stream)"
        : "This session needs its token (Authorization: Bearer, or ?token= for the WebSocket and the event stream)",
    );
  }
  // Role and expiry are checked here; revocation needs the object's storage and is checked there.
  const checked = await checkAccessToken(c.get("config").sessionSecret, id.data, token, Date.now());
  if (!checked.ok) {
    logSecurityEvent("credential_refused", { sessionId: id.data, reason: checked.reason });
    if (checked.reason === "expired") throw new HttpError("link_expired", "This share link has expired");
    throw new HttpError("forbidden", "Wrong token for this session");
  }
  c.set("sessionId", id.data);
  c.set("access", checked.access);
  c.set("token", token);
  await next();
});

// The person's stop, before the session token checks below: the person needs no session token.
app.route("/api/sessions", sessionStopRoute);

// Every session route is authorized here, in the Worker, so a bad request never wakes the object.
// "/api/sessions/:id/*" also matches "/api/sessions/:id" itself, so one registration covers both.
app.use("/api/sessions/:id/*", authorizeSession);
app.use("/api/sessions/:id/*", requireOwnSession);
app.route("/api/sessions/:id/links", linkRoutes);
app.route("/api/sessions/:id/owner-token", ownerTokenRoutes);
app.route("/api/sessions/:id/ws-ticket", ticketRoutes);
app.route("/api/sessions/:id", externalRoutes);
app.route("/api/sessions/:id", sessionRoutes);

app.route("/api/inbox", inboxRoutes);
app.route("/api/channels", channelRoutes);
app.route("/api/agent-keys", agentKeyRoutes);
app.route("/api/machines", machineRoutes);
app.route("/api/grants", grantRoutes);
app.route("/api/decisions", decisionRoutes);
app.route("/api/people/me/emails", emailRoutes);
app.route("/api/people", peopleRoutes);

app.all("/api/*", () => {
  throw new HttpError("not_found", "No such API route");
});

app.onError((thrown, c) => {
  // The one refusal, whether a route threw it or `unwrap` read it from an object's answer.
  if (thrown instanceof HttpError) {
    const wait = thrown.extra.retryAfterSeconds;
    return c.json(thrown.toBody(), thrown.status as 400, wait ? { "retry-after": String(wait) } : {});
  }
  console.error("Parley request failed", thrown);
  return c.json({ error: { code: "internal", message: "Internal error" } }, 500);
});
