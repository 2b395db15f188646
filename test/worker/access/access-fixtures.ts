// Share-link helpers for the access tests: minting through the real route, and reading errors.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { MintedLink } from "../../../src/protocol/access/access";
import { app } from "../../../src/router/app";
import { api, type CreatedSession, ORIGIN } from "../../helpers/session-harness";

export async function mintLink(
  session: CreatedSession,
  body: Record<string, unknown> = {},
): Promise<MintedLink> {
  const response = await api("POST", `/api/sessions/${session.sessionId}/links`, {
    token: session.token,
    body,
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as MintedLink;
}

export async function expectError(response: Response, status: number, code: string): Promise<void> {
  const body = (await response.json()) as { error?: { code: string } };
  expect({ status: response.status, code: body.error?.code }).toEqual({ status, code });
}

const GATEWAY_TOKEN = "gateway-token-of-the-client-address-tests";
// One env object, so the Worker reads its configuration once; the bindings (the creation limiter
// included) are the runtime's own.
const guarded = { ...env, GATEWAY_TOKEN } as unknown as Env;

/**
 * `POST /api/sessions` from client address `ip`. A gateway with no credential answers loopback
 * only, so a client from elsewhere needs one: this deployment has a GATEWAY_TOKEN and presents it.
 */
export async function createFromAddress(ip: string): Promise<Response> {
  const headers = {
    "cf-connecting-ip": ip,
    authorization: `Bearer ${GATEWAY_TOKEN}`,
    "content-type": "application/json",
  };
  return await app.fetch(
    new Request(`${ORIGIN}/api/sessions`, { method: "POST", headers, body: "{}" }),
    guarded,
  );
}

/**
 * Runs `attempt` until it runs inside one window of the creation limiter. The limiter counts in
 * windows aligned to the wall clock (60 s), so a run that straddles a window's end starts
 * counting again halfway; a second run of a few seconds cannot straddle one too.
 */
export async function inOneLimiterWindow<T>(attempt: () => Promise<T>): Promise<T> {
  const windowOf = (at: number) => Math.floor(at / 60_000);
  for (let tries = 0; ; tries++) {
    const started = windowOf(Date.now());
    const result = await attempt();
    if (windowOf(Date.now()) === started || tries === 2) return result;
  }
}
