// Property suite: ~1 000 seeded malformed and hostile WebSocket frames (every command type) and
// HTTP requests to every route the Worker registers (bodies, path parameters, query values and
// credentials) against a paused session. None may cause a 5xx, each refusal carries a documented
// error code, sockets stay open, storage stays byte-identical, and the real answer still works.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ErrorCode } from "../../../src/protocol/wire/errors";
import { api, type CreatedSession, connect, type Device } from "../../helpers/session-harness";
import { pausedSession, storageFingerprint } from "../session-api/channel-fixtures";
import { hostileSegment, hostileText, hostileToken, PENDING_ID } from "./hostile-input";
import { type AppRoute, ROUTE_CASES, registeredRoutes, wouldAct } from "./route-cases";

const SEED = Number(process.env.FC_SEED ?? 20261123);
const FRAMES = 650;
const REQUESTS = 500;
const CREDENTIALS = 150;
// A socket may send a burst of 20 commands; the suite moves to a fresh socket before that.
const FRAMES_PER_SOCKET = 18;

/** Refusals bad input may get; anything else (or a code outside the protocol) fails the suite. */
const EXPECTED_REFUSALS = new Set([
  "bad_json",
  "invalid_input",
  "payload_too_large",
  "unknown_command",
  "unknown_interaction",
  "unknown_message",
  "wrong_interaction_kind",
  "invalid_answer",
  "nothing_to_cancel",
  "nothing_to_retry",
  "no_agent",
  "not_top_agent",
  "not_found",
  "not_external",
]);

/** What a hostile credential may get: refused, never served and never a 5xx. */
const CREDENTIAL_REFUSALS = new Set([
  "unauthorized",
  "forbidden",
  "link_expired",
  "link_revoked",
  "not_found",
]);

/** The same on a person's route, which may refuse its parameter first. */
const PERSON_ROUTE_REFUSALS = new Set([...CREDENTIAL_REFUSALS, "invalid_input"]);
// Routes whose credential is the body's (a notification's answer token, an invite): a bearer header
// is no credential there, so an empty body is refused as the input it is, whatever the header says.
const BODY_CREDENTIAL_ROUTES = new Set(["POST /api/push/answer", "POST /api/people/invites/redeem"]);

const ROUTES = registeredRoutes();

/** `route.path` with `:id` (and `:sessionId`) the session, and every other parameter `param`. */
function pathOf(route: AppRoute, sessionId: string, param: string): string {
  return route.path.replace(/:(\w+)/g, (_all, name: string) =>
    name === "id" || name === "sessionId" ? sessionId : encodeURIComponent(param.toWellFormed()),
  );
}

/** A hostile request to `route`, or null when the generated body would legitimately act. */
function hostileRequest(
  route: AppRoute,
  sessionId: string,
  [body, segment, query]: [string, string, string],
): { path: string; body?: string } | null {
  const rule = ROUTE_CASES[route.key];
  if (!rule || rule.kind === "credential-only") return null;
  if (rule.kind === "params") return { path: pathOf(route, sessionId, segment) };
  // "x" first: a cursor that parses would open a stream that never ends, which is not bad input.
  const hostileQuery = `?after=${encodeURIComponent(`x${query}`.toWellFormed())}&device=${encodeURIComponent(segment.toWellFormed())}`;
  if (rule.kind === "query") return { path: `${pathOf(route, sessionId, "x")}${hostileQuery}` };
  const value = body.trim() === "" ? {} : parseJson(body);
  if (rule.acts(value)) return null;
  return { path: pathOf(route, sessionId, PENDING_ID), body };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function expectDocumentedRefusal(code: string | undefined, input: string, also = new Set<string>()): void {
  expect(ErrorCode.options, `undocumented code for ${input.slice(0, 200)}`).toContain(code);
  const expected = EXPECTED_REFUSALS.has(code ?? "") || also.has(code ?? "");
  expect(expected, `unexpected refusal ${code} for ${input.slice(0, 200)}`).toBe(true);
}

/**
 * The person's own routes: the inbox, grants, decision record, agent keys, chat links (and the off
 * webhooks beside them), machines, and stopping a session.
 */
function isPersonRoute(route: AppRoute): boolean {
  if (route.key === "POST /api/sessions/:id/stop") return true;
  return [
    "/api/inbox",
    "/api/grants",
    "/api/decisions",
    "/api/agent-keys",
    "/api/channels",
    "/api/machines",
    "/api/people",
  ].some((root) => route.path.startsWith(root));
}

/** A session's token is no one's inbox credential: the person's routes may refuse it as such. */
function refusalsOf(route: AppRoute): Set<string> {
  // A card's email link is its token: a hostile path segment is no link Parley signed.
  if (route.path.startsWith("/api/email/cards/")) return new Set(["forbidden"]);
  if (!isPersonRoute(route)) return new Set();
  // No such grant: a revoke names the grant it could not find; the people routes name no such person.
  const missing =
    route.key === "DELETE /api/grants/:grantId" || route.path.startsWith("/api/people") ? ["not_found"] : [];
  return new Set(["unauthorized", "forbidden", ...missing]);
}

/** Routes that take no credential: creating a session (open in tests), the push and chat settings. */
const PUBLIC_ROUTES = new Set(["POST /api/sessions", "GET /api/notify", "GET /api/channels"]);

describe("the hostile-input suite's coverage", () => {
  it("has a case for every route the Worker registers, so a new route cannot go untested", () => {
    expect(ROUTES.length).toBeGreaterThan(30);
    expect(ROUTES.filter((route) => !(route.key in ROUTE_CASES)).map((route) => route.key)).toEqual([]);
    // The external routes, owner-token rotation, tickets, batch decisions, the inbox, stopping a
    // session and machines included.
    for (const key of [
      "POST /api/sessions/:id/decide-batch",
      "POST /api/sessions/:id/interactions",
      "POST /api/sessions/:id/progress",
      "POST /api/sessions/:id/owner-token",
      "POST /api/sessions/:id/ws-ticket",
      "POST /api/inbox/links",
      "POST /api/agent-keys",
      "DELETE /api/agent-keys/:keyId",
      "POST /api/sessions/:id/stop",
      "GET /api/machines/connect",
      "POST /api/machines/:machineId/sessions",
    ])
      expect(ROUTES.map((route) => route.key)).toContain(key);
  });
});

describe("hostile input against a paused session", () => {
  it(`refuses ${FRAMES} WebSocket frames, ${REQUESTS} HTTP requests and ${CREDENTIALS} credentials precisely, changes nothing, and still takes the real answer`, async () => {
    const session: CreatedSession = await pausedSession();
    const before = await storageFingerprint(session.sessionId);
    let device: Device = await connect(session);
    let sentOnSocket = 0;

    await fc.assert(
      fc.asyncProperty(
        hostileText.filter((text) => !wouldAct(parseJson(text))),
        async (frame) => {
          if (sentOnSocket === FRAMES_PER_SOCKET) {
            device.close();
            device = await connect(session);
            sentOnSocket = 0;
          }
          sentOnSocket += 1;
          const acks = device.acks.length;
          device.sendRaw(frame);
          const ack = await device.until(() => device.acks[acks], "an ack");
          if (ack.ok) expect((parseJson(frame) as { type?: unknown }).type).toBe("resume");
          else expectDocumentedRefusal(ack.error?.code, frame);
          expect(device.closed).toBe(false);
        },
      ),
      { seed: SEED, numRuns: FRAMES, endOnFailure: true },
    );
    device.close();

    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        fc.tuple(hostileText, hostileSegment, hostileSegment),
        async (route, inputs) => {
          const request = hostileRequest(route, session.sessionId, inputs);
          fc.pre(request !== null);
          const response = await api(route.method, request.path, {
            token: session.token,
            ...(request.body === undefined ? {} : { rawBody: request.body }),
          });
          const what = `${route.key} ${request.path} ${request.body?.slice(0, 200) ?? ""}`;
          expect(response.status, what).toBeLessThan(500);
          const rule = ROUTE_CASES[route.key];
          if (response.status < 400 && (rule?.kind === "params" || (rule?.kind === "query" && rule.ok)))
            return;
          expect(response.status, what).toBeGreaterThanOrEqual(400);
          const error = ((await response.json()) as { error?: { code: string } }).error;
          expectDocumentedRefusal(error?.code, what, refusalsOf(route));
        },
      ),
      { seed: SEED + 1, numRuns: REQUESTS, endOnFailure: true },
    );

    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES.filter((route) => !PUBLIC_ROUTES.has(route.key))),
        hostileToken,
        async (route, token) => {
          const response = await api(route.method, pathOf(route, session.sessionId, "x"), {
            headers: { authorization: `Bearer ${token}` },
            ...(route.method === "GET" ? {} : { rawBody: "{}" }),
          });
          const what = `${route.key} with token ${token}`;
          expect(response.status, what).toBeLessThan(500);
          // The person (of the inbox, grants, decisions, agent keys and chat links) comes from the edge (Access)
          // or GATEWAY_TOKEN, and this runtime has neither: no caller is a person, loopback (as these
          // are) included, so every hostile credential is refused there too; an agent key's shape
          // is refused by every route but one.
          if (isPersonRoute(route) && token.startsWith("pak_")) {
            expect(response.status, what).toBe(403);
            return;
          }
          expect(response.status, what).toBeGreaterThanOrEqual(400);
          const error = ((await response.json()) as { error?: { code: string } }).error;
          // A person's route may read its parameter ("x", no id of its) before the missing person.
          const refusals =
            isPersonRoute(route) || BODY_CREDENTIAL_ROUTES.has(route.key)
              ? PERSON_ROUTE_REFUSALS
              : CREDENTIAL_REFUSALS;
          expect(refusals.has(error?.code ?? ""), `${what}: ${error?.code}`).toBe(true);
        },
      ),
      { seed: SEED + 2, numRuns: CREDENTIALS, endOnFailure: true },
    );

    expect(await storageFingerprint(session.sessionId)).toBe(before);
    const owner = await connect(session);
    expect(await owner.request({ type: "approve", toolCallId: PENDING_ID })).toMatchObject({ ok: true });
    await owner.waitForDone();
    owner.close();
  }, 240_000);
});
