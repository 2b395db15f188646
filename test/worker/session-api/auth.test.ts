import { listDurableObjectIds } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../../src/router/app";
import { newSessionId, signSessionToken } from "../../../src/tokens/session-token";
import { api, connect, createSession, ORIGIN, textReply } from "../../helpers/session-harness";

const GATEWAY_TOKEN = "gateway-token-for-tests";
const withGateway = { ...env, GATEWAY_TOKEN } as Env;

async function createWithGateway(authorization?: string): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (authorization !== undefined) headers.authorization = authorization;
  return app.fetch(
    new Request(`${ORIGIN}/api/sessions`, { method: "POST", headers, body: "{}" }),
    withGateway,
  );
}

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

async function expectError(response: Response, status: number, code: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(await errorOf(response)).toMatchObject({ code });
}

function socketRequest(sessionId: string, token: { query?: string; bearer?: string }): Promise<Response> {
  const query = token.query === undefined ? "" : `?token=${encodeURIComponent(token.query)}`;
  const headers: Record<string, string> = { upgrade: "websocket" };
  if (token.bearer !== undefined) headers.authorization = `Bearer ${token.bearer}`;
  return exports.default.fetch(`${ORIGIN}/api/sessions/${sessionId}/ws${query}`, { headers });
}

/** Every session route, each with a body it would accept. */
const ROUTES: Array<{ method: string; path: string; body?: unknown; ok: number }> = [
  { method: "GET", path: "", ok: 200 },
  { method: "PATCH", path: "", body: { permissionMode: "plan" }, ok: 200 },
  { method: "GET", path: "/events", ok: 200 },
  { method: "GET", path: "/stats", ok: 200 },
  { method: "POST", path: "/messages", body: { text: "hello" }, ok: 202 },
];

describe("creating a session behind a gateway token", () => {
  it("refuses a request without the gateway token with 401 unauthorized", async () => {
    await expectError(await createWithGateway(), 401, "unauthorized");
  });

  it("refuses a wrong gateway token with 403 forbidden", async () => {
    await expectError(await createWithGateway("Bearer not-the-gateway-token"), 403, "forbidden");
    await expectError(await createWithGateway(`Bearer ${GATEWAY_TOKEN}x`), 403, "forbidden");
  });

  it("creates the session with the right gateway token and returns a working session token", async () => {
    const response = await createWithGateway(`Bearer ${GATEWAY_TOKEN}`);
    expect(response.status).toBe(201);
    const created = (await response.json()) as { sessionId: string; token: string; websocketUrl: string };
    expect(created.sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(created.websocketUrl).toBe(
      `ws://127.0.0.1:8787/api/sessions/${created.sessionId}/ws?token=${created.token}`,
    );
    const snapshot = await api("GET", `/api/sessions/${created.sessionId}`, { token: created.token });
    expect(snapshot.status).toBe(200);
  });

  it("does not accept the gateway token in place of a session token", async () => {
    const response = await createWithGateway(`Bearer ${GATEWAY_TOKEN}`);
    const { sessionId } = (await response.json()) as { sessionId: string };
    const snapshot = await app.fetch(
      new Request(`${ORIGIN}/api/sessions/${sessionId}`, {
        headers: { authorization: `Bearer ${GATEWAY_TOKEN}` },
      }),
      withGateway,
    );
    await expectError(snapshot, 403, "forbidden");
  });

  it("lets anyone create a session when no gateway token is configured", async () => {
    expect((await api("POST", "/api/sessions", { body: {} })).status).toBe(201);
  });
});

describe("a session's capability token", () => {
  it("is required on every session route (401 unauthorized without it)", async () => {
    const session = await createSession();
    for (const route of ROUTES) {
      const response = await api(route.method, `/api/sessions/${session.sessionId}${route.path}`, {
        body: route.body,
      });
      await expectError(response, 401, "unauthorized");
    }
  });

  it("of another session is refused on every route with 403 forbidden", async () => {
    const [session, other] = await Promise.all([createSession(), createSession()]);
    for (const route of ROUTES) {
      const response = await api(route.method, `/api/sessions/${session.sessionId}${route.path}`, {
        token: other.token,
        body: route.body,
      });
      await expectError(response, 403, "forbidden");
    }
  });

  it("that is malformed is refused with 403 forbidden, in the header or the query", async () => {
    const session = await createSession();
    for (const bad of [
      "abc",
      "not!base64",
      "a".repeat(200),
      `${session.token}AA`,
      session.token.slice(0, -1),
    ]) {
      await expectError(
        await api("GET", `/api/sessions/${session.sessionId}`, { token: bad }),
        403,
        "forbidden",
      );
      await expectError(await socketRequest(session.sessionId, { query: bad }), 403, "forbidden");
    }
  });

  it("opens every route with Authorization: Bearer, and refuses ?token= outside the WebSocket", async () => {
    const session = await createSession({ script: [textReply("one"), textReply("two")] });
    for (const route of ROUTES) {
      const base = `/api/sessions/${session.sessionId}${route.path}`;
      const viaHeader = await api(route.method, base, { token: session.token, body: route.body });
      expect(viaHeader.status, `${route.method} ${base} (header)`).toBe(route.ok);
      // Tokens in URLs end up in logs; only the socket, which cannot carry headers, takes one.
      const viaQuery = await api(route.method, `${base}?token=${session.token}`, { body: route.body });
      expect(viaQuery.status, `${route.method} ${base} (query)`).toBe(401);
      expect(((await viaQuery.json()) as { error: { message: string } }).error.message).toContain(
        "accepted only for the WebSocket",
      );
    }
  });

  it("refuses to create sessions when an API key is configured but no gateway token guards it", async () => {
    const open = await app.fetch(new Request(`${ORIGIN}/api/sessions`, { method: "POST" }), {
      ...env,
      ANTHROPIC_API_KEY: "sk-test",
    });
    await expectError(open, 500, "misconfigured");
    const allowed = await app.fetch(new Request(`${ORIGIN}/api/sessions`, { method: "POST" }), {
      ...env,
      ANTHROPIC_API_KEY: "sk-test",
      ALLOW_OPEN_GATEWAY: "true",
    });
    expect(allowed.status).toBe(201);
  });

  it("guards the WebSocket: 401 without it, 403 for another session's or a malformed one", async () => {
    const [session, other] = await Promise.all([createSession(), createSession()]);
    await expectError(await socketRequest(session.sessionId, {}), 401, "unauthorized");
    await expectError(await socketRequest(session.sessionId, { query: other.token }), 403, "forbidden");
    await expectError(await socketRequest(session.sessionId, { bearer: other.token }), 403, "forbidden");
    await expectError(await socketRequest(session.sessionId, { query: "%%%" }), 403, "forbidden");
    await expectError(await socketRequest(session.sessionId, { query: "" }), 401, "unauthorized");
  });

  it("upgrades the WebSocket (101) when sent as ?token= or as Authorization: Bearer", async () => {
    const session = await createSession();
    for (const token of [{ query: session.token }, { bearer: session.token }]) {
      const response = await socketRequest(session.sessionId, token);
      expect(response.status).toBe(101);
      const socket = response.webSocket;
      expect(socket).not.toBeNull();
      socket?.accept();
      socket?.close(1000, "done");
    }
    const device = await connect(session);
    expect(device.hello?.snapshot.sessionId).toBe(session.sessionId);
    device.close();
  });

  it("signed correctly for a session that was never created gives 404 unknown_session", async () => {
    const sessionId = newSessionId();
    const token = await signSessionToken(env.SESSION_SECRET as string, sessionId);
    await expectError(await api("GET", `/api/sessions/${sessionId}`, { token }), 404, "unknown_session");
    await expectError(
      await api("GET", `/api/sessions/${sessionId}/events`, { token }),
      404,
      "unknown_session",
    );
    await expectError(
      await api("POST", `/api/sessions/${sessionId}/messages`, { token, body: { text: "hi" } }),
      404,
      "unknown_session",
    );
    await expectError(await socketRequest(sessionId, { query: token }), 404, "unknown_session");
  });

  it("cannot make a malformed session id reach anything: 404 with or without a token", async () => {
    const session = await createSession();
    for (const id of ["nope", `${session.sessionId}0`, session.sessionId.toUpperCase(), "../../etc"]) {
      const path = `/api/sessions/${encodeURIComponent(id)}`;
      await expectError(await api("GET", path), 404, "unknown_session");
      await expectError(await api("GET", `${path}/events`, { token: session.token }), 404, "unknown_session");
    }
  });

  it("is checked in the Worker, so a wrong token never creates the session's Durable Object", async () => {
    const session = await createSession();
    const target = newSessionId();
    await expectError(
      await api("GET", `/api/sessions/${target}`, { token: session.token }),
      403,
      "forbidden",
    );
    await expectError(await socketRequest(target, { query: session.token }), 403, "forbidden");
    const ids = await listDurableObjectIds(env.SESSIONS);
    const targetId = env.SESSIONS.idFromName(target);
    expect(ids.some((id) => id.equals(targetId))).toBe(false);
    expect(ids.some((id) => id.equals(env.SESSIONS.idFromName(session.sessionId)))).toBe(true);
  });
});
