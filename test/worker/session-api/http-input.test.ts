import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_INPUT_BYTES } from "../../../src/protocol";
import { AgentMessagesPage } from "../../../src/protocol/external/agent-messages";
import { api, type CreatedSession, ORIGIN } from "../../helpers/session-harness";
import { pausedSession, storageFingerprint } from "./channel-fixtures";

interface BadRequest {
  /** Completes "answers …". */
  what: string;
  method: string;
  path: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  status: number;
  code: string;
  /** Text the error message must contain (the offending field, usually). */
  mentions?: string;
}

const oversizedText = "x".repeat(MAX_INPUT_BYTES + 1);

const CASES: BadRequest[] = [
  {
    what: "malformed JSON with 400 bad_json",
    method: "POST",
    path: "/messages",
    rawBody: '{"text": "hi"',
    status: 400,
    code: "bad_json",
  },
  {
    what: "an empty body with 400 bad_json",
    method: "POST",
    path: "/messages",
    rawBody: "",
    status: 400,
    code: "bad_json",
  },
  {
    what: "a JSON array body with 400 invalid_input",
    method: "POST",
    path: "/messages",
    body: ["hi"],
    status: 400,
    code: "invalid_input",
  },
  {
    what: "a number where the message text belongs with 400 invalid_input naming text",
    method: "POST",
    path: "/messages",
    body: { text: 42 },
    status: 400,
    code: "invalid_input",
    mentions: "text",
  },
  {
    what: "a missing message text with 400 invalid_input naming text",
    method: "POST",
    path: "/messages",
    body: {},
    status: 400,
    code: "invalid_input",
    mentions: "text",
  },
  {
    what: "an unknown field with 400 invalid_input naming it",
    method: "POST",
    path: "/messages",
    body: { text: "hi", priority: "high" },
    status: 400,
    code: "invalid_input",
    mentions: "priority",
  },
  {
    what: "an empty message with 400 invalid_input",
    method: "POST",
    path: "/messages",
    body: { text: "" },
    status: 400,
    code: "invalid_input",
    mentions: "message is empty",
  },
  {
    what: "a whitespace-only message with 400 invalid_input",
    method: "POST",
    path: "/messages",
    body: { text: " \n\t " },
    status: 400,
    code: "invalid_input",
    mentions: "message is empty",
  },
  {
    what: "a body over 64 KiB with 413 payload_too_large",
    method: "POST",
    path: "/messages",
    body: { text: oversizedText },
    status: 413,
    code: "payload_too_large",
  },
  {
    what: "an approval with a string for remember with 400 invalid_input naming remember",
    method: "POST",
    path: "/approve",
    body: { toolCallId: "toolu_pending", remember: "yes" },
    status: 400,
    code: "invalid_input",
    mentions: "remember",
  },
  {
    what: "an approval with a malformed toolCallId with 400 invalid_input naming toolCallId",
    method: "POST",
    path: "/approve",
    body: { toolCallId: "no spaces allowed" },
    status: 400,
    code: "invalid_input",
    mentions: "toolCallId",
  },
  {
    what: "an approval for an unknown toolCallId with 404 unknown_interaction",
    method: "POST",
    path: "/approve",
    body: { toolCallId: "toolu_unknown" },
    status: 404,
    code: "unknown_interaction",
    mentions: "toolu_unknown",
  },
  {
    what: "a denial for an unknown toolCallId with 404 unknown_interaction",
    method: "POST",
    path: "/deny",
    body: { toolCallId: "toolu_unknown", reason: "no" },
    status: 404,
    code: "unknown_interaction",
  },
  {
    what: "answers without the answers field with 400 invalid_input naming answers",
    method: "POST",
    path: "/submit-answers",
    body: { toolCallId: "toolu_pending" },
    status: 400,
    code: "invalid_input",
    mentions: "answers",
  },
  {
    what: "a cancel with a body field with 400 invalid_input",
    method: "POST",
    path: "/cancel",
    body: { force: true },
    status: 400,
    code: "invalid_input",
    mentions: "force",
  },
  {
    what: "an unknown permission mode with 400 invalid_input naming permissionMode",
    method: "PATCH",
    path: "",
    body: { permissionMode: "yolo" },
    status: 400,
    code: "invalid_input",
    mentions: "permissionMode",
  },
  {
    what: "an unknown session route with 404 not_found",
    method: "POST",
    path: "/launch",
    body: {},
    status: 404,
    code: "not_found",
  },
  // Every command route but POST …/messages, whose GET is the agent's read of the person's messages.
  ...[
    "/submit-answers",
    "/approve",
    "/deny",
    "/respond",
    "/decide-batch",
    "/cancel",
    "/end-agent",
    "/retry-now",
    "/extend-deadline",
    "/deadline-policies",
  ].map(
    (path): BadRequest => ({
      what: `a GET on the ${path} command route with 404 not_found`,
      method: "GET",
      path,
      status: 404,
      code: "not_found",
    }),
  ),
  {
    what: "events after=-1 with 400 invalid_input naming after",
    method: "GET",
    path: "/events?after=-1",
    status: 400,
    code: "invalid_input",
    mentions: "after",
  },
  {
    what: "events limit=0 with 400 invalid_input naming limit",
    method: "GET",
    path: "/events?limit=0",
    status: 400,
    code: "invalid_input",
    mentions: "limit",
  },
  {
    what: "events limit above the page maximum with 400 invalid_input naming limit",
    method: "GET",
    path: "/events?limit=1001",
    status: 400,
    code: "invalid_input",
    mentions: "limit",
  },
  {
    what: "events after=abc with 400 invalid_input naming after",
    method: "GET",
    path: "/events?after=abc",
    status: 400,
    code: "invalid_input",
    mentions: "after",
  },
  {
    what: "a device id with spaces with 400 invalid_input naming X-Device-Id",
    method: "POST",
    path: "/messages",
    body: { text: "hi" },
    headers: { "x-device-id": "my phone" },
    status: 400,
    code: "invalid_input",
    mentions: "X-Device-Id",
  },
  {
    what: "a device id over 64 characters with 400 invalid_input naming X-Device-Id",
    method: "POST",
    path: "/approve",
    body: { toolCallId: "toolu_pending" },
    headers: { "x-device-id": "d".repeat(65) },
    status: 400,
    code: "invalid_input",
    mentions: "X-Device-Id",
  },
  {
    what: "a WebSocket route without an upgrade with 400 invalid_input",
    method: "GET",
    path: "/ws",
    status: 400,
    code: "invalid_input",
  },
];

/** Everything a client or the database could show about the session, minus the server clock. */
async function observable(session: CreatedSession) {
  const snapshot = (await (
    await api("GET", `/api/sessions/${session.sessionId}`, { token: session.token })
  ).json()) as Record<string, unknown>;
  const page = (await (
    await api("GET", `/api/sessions/${session.sessionId}/events`, { token: session.token })
  ).json()) as { lastSeq: number };
  const { serverTime: _, ...stable } = snapshot;
  return { snapshot: stable, lastSeq: page.lastSeq, storage: await storageFingerprint(session.sessionId) };
}

describe("malformed HTTP input to a session", () => {
  for (const bad of CASES) {
    it(`answers ${bad.what} and changes nothing`, async () => {
      const session = await pausedSession();
      const before = await observable(session);
      expect(before.snapshot).toMatchObject({
        status: "awaiting_input",
        pending: [{ toolCallId: "toolu_pending" }],
      });

      const response = await api(bad.method, `/api/sessions/${session.sessionId}${bad.path}`, {
        token: session.token,
        ...(bad.body !== undefined ? { body: bad.body } : {}),
        ...(bad.rawBody !== undefined ? { rawBody: bad.rawBody } : {}),
        ...(bad.headers ? { headers: bad.headers } : {}),
      });
      expect(response.status).toBe(bad.status);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe(bad.code);
      if (bad.mentions) expect(error.message).toContain(bad.mentions);
      expect(await observable(session)).toEqual(before);
    });
  }

  it("reads the messages on a GET of the messages route, and sends none", async () => {
    const session = await pausedSession();
    const before = await observable(session);
    const response = await api("GET", `/api/sessions/${session.sessionId}/messages`, {
      token: session.token,
    });
    expect(response.status).toBe(200);
    const page = AgentMessagesPage.strict().parse(await response.json());
    expect(page.stopped).toBe(false);
    expect(await observable(session)).toEqual(before);
  });

  it("stops reading a streamed body without Content-Length once it passes 64 KiB, answers 413 and changes nothing", async () => {
    const session = await pausedSession();
    const before = await observable(session);
    // Eight megabytes offered in pieces; the server should stop asking long before the end.
    const piece = new TextEncoder().encode(`{"text":"${"x".repeat(16_370)}`);
    let offered = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offered >= 8 * 1024 * 1024) return controller.close();
        offered += piece.byteLength;
        controller.enqueue(piece);
      },
    });
    const response = await exports.default.fetch(`${ORIGIN}/api/sessions/${session.sessionId}/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.token}`, "content-type": "application/json" },
      body,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: "payload_too_large" } });
    expect(offered).toBeLessThan(1024 * 1024);
    expect(await observable(session)).toEqual(before);
  });

  it("answers an unknown API route outside any session with 404 not_found", async () => {
    const response = await api("GET", "/api/nothing-here");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "not_found" } });
  });
});
