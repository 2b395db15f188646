// The one-time sign-in of a local Parley: the code `npm run dev` prints is traded once for the
// gateway token; a second use, an expired or forged code, or a token the Worker signs is refused.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signInCode } from "../../../scripts/dev-sign-in.mjs";
import { app } from "../../../src/router/app";
import { signInboxTicket } from "../../../src/router/tickets/inbox-ticket";
import { signSessionToken } from "../../../src/tokens/session-token";
import { ORIGIN } from "../../helpers/session-harness";
import { expectError } from "./access-fixtures";

const GATEWAY_TOKEN = "gateway-token-of-the-sign-in-tests";
const guarded = { ...env, GATEWAY_TOKEN } as unknown as Env;
const secret = env.SESSION_SECRET as string;

async function signIn(code: unknown, on: Env = guarded): Promise<Response> {
  const request = new Request(`${ORIGIN}/api/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ code }),
  });
  return app.fetch(request, on);
}

describe("signing in with the code npm run dev prints", () => {
  it("trades the code once for the gateway token, which then reads the inbox", async () => {
    const code = await signInCode(secret, Date.now());
    const first = await signIn(code);
    expect(first.status, await first.clone().text()).toBe(200);
    const { gatewayToken } = (await first.json()) as { gatewayToken: string };
    expect(gatewayToken).toBe(GATEWAY_TOKEN);
    const inbox = await app.fetch(
      new Request(`${ORIGIN}/api/inbox`, { headers: { authorization: `Bearer ${gatewayToken}` } }),
      guarded,
    );
    expect(inbox.status).toBe(200);

    const again = await signIn(code);
    await expectError(again.clone(), 403, "forbidden");
    expect(((await again.json()) as { error: { message: string } }).error.message).toMatch(/already used/);
  });

  it("refuses an expired code, one minted to live too long, and one signed with another key", async () => {
    const now = Date.now();
    await expectError(await signIn(await signInCode(secret, now - 11 * 60_000)), 403, "forbidden");
    await expectError(await signIn(await signInCode(secret, now, 24 * 3_600_000)), 403, "forbidden");
    await expectError(
      await signIn(await signInCode("another-secret-at-least-32-bytes-long", now)),
      403,
      "forbidden",
    );
  });

  it("refuses the Worker's own tokens as a code: an owner token and an inbox ticket", async () => {
    const owner = await signSessionToken(secret, "0123456789abcdef0123456789abcdef");
    const ticket = (await signInboxTicket(secret, "operator", null, Date.now())).ticket;
    for (const code of [owner, ticket, "", "x".repeat(3000)]) {
      const refused = await signIn(code);
      expect(refused.status, code.slice(0, 20)).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
      expect(JSON.stringify(await refused.json())).not.toContain(GATEWAY_TOKEN);
    }
  });

  it("is no way in on a gateway with no GATEWAY_TOKEN", async () => {
    const refused = await signIn(await signInCode(secret, Date.now()), env as unknown as Env);
    await expectError(refused, 404, "not_found");
  });
});
