import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../../src/router/app";
import { signSessionToken } from "../../../src/tokens/session-token";
import { createSession, ORIGIN } from "../../helpers/session-harness";

// The key a deployment without SESSION_SECRET once fell back to, public in the source: it must sign
// nothing anywhere now.
const DEVELOPMENT_SECRET = "parley-development-secret-do-not-deploy";
const GATEWAY_TOKEN = "gateway-token-for-tests";

/** The Worker's env as a deployment would have it, SESSION_SECRET replaced or removed. */
function deployment(vars: Record<string, string | undefined>): Env {
  const copy: Record<string, unknown> = { ...env, ...vars };
  for (const [key, value] of Object.entries(vars)) if (value === undefined) delete copy[key];
  return copy as unknown as Env;
}

async function getSession(sessionId: string, token: string, on: Env, origin = ORIGIN): Promise<Response> {
  return app.fetch(
    new Request(`${origin}/api/sessions/${sessionId}`, { headers: { authorization: `Bearer ${token}` } }),
    on,
  );
}

describe("the key that signs session tokens", () => {
  it("refuses an owner token computed from GATEWAY_TOKEN on a deployment without SESSION_SECRET", async () => {
    const session = await createSession();
    const forged = await signSessionToken(GATEWAY_TOKEN, session.sessionId);
    const response = await getSession(
      session.sessionId,
      forged,
      deployment({ SESSION_SECRET: undefined, GATEWAY_TOKEN }),
    );
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("misconfigured");
    expect(body.error.message).toMatch(/SESSION_SECRET.*wrangler secret put SESSION_SECRET/);
  });

  it("has no development key: without SESSION_SECRET even a loopback request is refused, and says how to set one", async () => {
    const session = await createSession();
    const forged = await signSessionToken(DEVELOPMENT_SECRET, session.sessionId);
    for (const vars of [
      { SESSION_SECRET: undefined },
      // The variable that once unlocked the public key on loopback unlocks nothing now.
      { SESSION_SECRET: undefined, PARLEY_LOCAL_DEV: "true" },
    ]) {
      const response = await getSession(session.sessionId, forged, deployment(vars), "http://127.0.0.1:8787");
      expect(response.status).toBe(500);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.message).toMatch(/SESSION_SECRET is not set/);
    }
  });

  it("refuses the forged tokens when SESSION_SECRET is set, and accepts the real one", async () => {
    const session = await createSession();
    const on = deployment({ GATEWAY_TOKEN });
    for (const secret of [GATEWAY_TOKEN, DEVELOPMENT_SECRET]) {
      const forged = await signSessionToken(secret, session.sessionId);
      expect((await getSession(session.sessionId, forged, on)).status).toBe(403);
    }
    expect((await getSession(session.sessionId, session.token, on)).status).toBe(200);
  });

  it("refuses a SESSION_SECRET shorter than 32 bytes and says how to make one", async () => {
    const response = await app.fetch(
      new Request(`${ORIGIN}/api/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      }),
      deployment({ SESSION_SECRET: "only-twenty-six-bytes-long" }),
    );
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.message).toMatch(/SESSION_SECRET.*at least 32 bytes.*openssl rand/);
  });
});
