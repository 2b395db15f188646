// No request is the person without a credential, from loopback too: any process on the machine (an
// agent's included) reaches loopback, so it may neither read the inbox nor answer a card there.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../../src/router/app";
import type { CreatedSession } from "../../helpers/session-harness";
import { api, connect, createSession, ORIGIN, toolReply } from "../../helpers/session-harness";
import { expectError } from "./access-fixtures";

const GATEWAY_TOKEN = "gateway-token-of-the-no-person-tests";
// One env object, so the Worker reads this configuration once.
const guarded = { ...env, GATEWAY_TOKEN } as unknown as Env;

/** Every route that acts for the person, as `[method, path]`; `:s`/`:i` name the pending card. */
const PERSON_ROUTES = [
  ["GET", "/api/inbox"],
  ["GET", "/api/inbox/stats"],
  ["POST", "/api/inbox/ws-ticket"],
  ["GET", "/api/inbox/stream"],
  ["POST", "/api/inbox/cards/:s/:i/respond"],
  ["POST", "/api/inbox/cards/:s/:i/extend"],
  ["POST", "/api/inbox/sessions/:s/open"],
  ["GET", "/api/inbox/links"],
  ["POST", "/api/inbox/links"],
  ["DELETE", "/api/inbox/links/0123456789abcdef0123456789abcdef"],
  ["GET", "/api/inbox/deliveries"],
  ["GET", "/api/grants"],
  ["POST", "/api/grants"],
  ["DELETE", "/api/grants/0123456789abcdef0123456789abcdef"],
  ["GET", "/api/agent-keys"],
  ["POST", "/api/agent-keys"],
  ["DELETE", "/api/agent-keys/0123456789abcdef0123456789abcdef"],
  ["GET", "/api/decisions"],
  ["GET", "/api/decisions/export"],
  ["GET", "/api/channels/links"],
] as const;

const ANSWER = { response: { decision: "approve" } };

async function send(
  on: Env | null,
  method: string,
  path: string,
  options: { bearer?: string; body?: unknown; ip?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  if (options.ip) headers["cf-connecting-ip"] = options.ip;
  const body = method === "POST" ? JSON.stringify(options.body ?? {}) : undefined;
  if (body) headers["content-type"] = "application/json";
  if (!on) return api(method, path, { headers, ...(body ? { rawBody: body } : {}) });
  return app.fetch(new Request(`${ORIGIN}${path}`, { method, headers, body }), on);
}

/** A session paused on an approval card `toolu_local_rm`, made with `bearer` (none: anonymous). */
async function pausedOnCard(on: Env | null, bearer?: string): Promise<CreatedSession> {
  const body = {
    script: [toolReply([{ name: "notes_write", id: "toolu_local_rm", input: { key: "k", text: "v" } }])],
  };
  const session = on
    ? ((await (await send(on, "POST", "/api/sessions", { bearer, body })).json()) as CreatedSession)
    : await createSession(body);
  const device = await connect(session);
  await device.request({ type: "send_message", text: "clean up" });
  await device.waitForEvent("approval_required");
  device.close();
  return session;
}

async function pendingCards(session: CreatedSession): Promise<string[]> {
  const snapshot = (await (
    await api("GET", `/api/sessions/${session.sessionId}`, { token: session.token })
  ).json()) as {
    pending: Array<{ interactionId: string }>;
  };
  return snapshot.pending.map((card) => card.interactionId);
}

async function expectNoPerson(on: Env | null, session: CreatedSession): Promise<void> {
  for (const [method, route] of PERSON_ROUTES) {
    const path = route.replace(":s", session.sessionId).replace(":i", "toolu_local_rm");
    for (const ip of ["127.0.0.1", "::1", undefined]) {
      const response = await send(on, method, path, { body: ANSWER, ...(ip ? { ip } : {}) });
      expect(response.status, `${method} ${path} from ${ip ?? "(no address)"}`).toBe(401);
      const refused = (await response.json()) as { error: { code: string } };
      expect(refused.error.code).toBe("unauthorized");
    }
  }
  expect(await pendingCards(session)).toEqual(["toolu_local_rm"]);
}

describe("a gateway with no credential configured", () => {
  it("answers every person route from loopback with 401, and a card an agent tries to approve stays pending", async () => {
    await expectNoPerson(null, await pausedOnCard(null));
  });

  it("says how to give it a person", async () => {
    const response = await send(null, "GET", "/api/inbox");
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /GATEWAY_TOKEN.*npm run dev/,
    );
  });
});

describe("a gateway with GATEWAY_TOKEN", () => {
  it("answers every person route from loopback without the token with 401, and the card stays pending", async () => {
    await expectNoPerson(guarded, await pausedOnCard(guarded, GATEWAY_TOKEN));
  });

  it("refuses a wrong token, and lets the token's holder read the inbox and approve the card", async () => {
    const session = await pausedOnCard(guarded, GATEWAY_TOKEN);
    const respond = `/api/inbox/cards/${session.sessionId}/toolu_local_rm/respond`;
    await expectError(
      await send(guarded, "POST", respond, { bearer: `${GATEWAY_TOKEN}x`, body: ANSWER }),
      401,
      "unauthorized",
    );
    expect(await pendingCards(session)).toEqual(["toolu_local_rm"]);
    const inbox = await send(guarded, "GET", "/api/inbox", { bearer: GATEWAY_TOKEN });
    expect(inbox.status).toBe(200);
    expect(await inbox.json()).toMatchObject({ person: "operator" });
    const answered = await send(guarded, "POST", respond, { bearer: GATEWAY_TOKEN, body: ANSWER });
    expect(answered.status, await answered.clone().text()).toBe(200);
    expect(await pendingCards(session)).toEqual([]);
  });
});
