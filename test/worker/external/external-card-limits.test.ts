// The sizes an external agent's doors have: a card's request and the remote /mcp endpoint's body
// are capped at 64 KiB, a session holds at most 100 pending cards, progress is rate-limited per
// link, and a key re-attaches only to the card it named (the same request), never to another.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  MAX_CARD_REQUEST_BYTES,
  MAX_INPUT_BYTES,
  MAX_PENDING_EXTERNAL_CARDS,
  PROGRESS_EVENT_BURST,
} from "../../../src/protocol/limits";
import { HttpCommandBudget } from "../../../src/session/budgets/http-command-budget";
import type { SessionObject } from "../../../src/session/session-object";
import { runInDurableObject } from "../../helpers/run-in-object";
import { api, ORIGIN } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";
import { expectError } from "../access/access-fixtures";
import { storageFingerprint } from "../session-api/channel-fixtures";
import { approvalRequest, createExternal, type ExternalSession, openCard } from "./external-fixtures";

/** Lifts the per-token HTTP command allowance, so a test may send many commands in a row. */
async function unlimitedHttpCommands(session: ExternalSession): Promise<void> {
  await runInDurableObject(stubOf(session.sessionId), (instance: SessionObject) => {
    const inside = instance as unknown as { httpBudget: HttpCommandBudget };
    inside.httpBudget = new HttpCommandBudget(() => instance.clock.now(), {
      socketCommandBurst: 10_000,
      socketCommandsPerSecond: 10_000,
    });
  });
}

function postMcp(session: ExternalSession, body: string): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}/api/sessions/${session.sessionId}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${session.agentToken}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
    },
    body,
  });
}

/** A tools/call of `approve` whose tool input holds `bytes` bytes of text. */
function approveCall(bytes: number): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "approve",
      arguments: { tool_name: "Bash", input: { command: "x".repeat(bytes) }, tool_use_id: "toolu_big" },
    },
  });
}

describe("the remote /mcp endpoint's size", () => {
  it("refuses a 1.5 MB call with 413 and stores nothing", async () => {
    const session = await createExternal();
    const before = await storageFingerprint(session.sessionId);
    const response = await postMcp(session, approveCall(1_500_000));
    await expectError(response, 413, "payload_too_large");
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });

  it("refuses a call just over 64 KiB, sent without a Content-Length, and stores nothing", async () => {
    const session = await createExternal();
    const before = await storageFingerprint(session.sessionId);
    const bytes = new TextEncoder().encode(approveCall(MAX_INPUT_BYTES));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 8192) controller.enqueue(bytes.slice(at, at + 8192));
        controller.close();
      },
    });
    const response = await exports.default.fetch(`${ORIGIN}/api/sessions/${session.sessionId}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${session.agentToken}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: stream,
      duplex: "half",
    } as RequestInit);
    await expectError(response, 413, "payload_too_large");
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });
});

describe("a card's request size", () => {
  it("refuses a 65 KiB request through /interactions with 413 and stores nothing", async () => {
    const session = await createExternal();
    const before = await storageFingerprint(session.sessionId);
    const request = { toolName: "Bash", input: { command: "x".repeat(65 * 1024) } };
    expect(JSON.stringify(request).length).toBeGreaterThan(MAX_CARD_REQUEST_BYTES);
    await expectError(await openCard(session, { kind: "approval", request }), 413, "payload_too_large");
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });
});

describe("an external session's pending cards", () => {
  it(`holds at most ${MAX_PENDING_EXTERNAL_CARDS}: the next is refused with 429 too_many_pending until one ends`, async () => {
    const session = await createExternal();
    await unlimitedHttpCommands(session);
    const ids: string[] = [];
    for (let i = 0; i < MAX_PENDING_EXTERNAL_CARDS; i++) {
      const opened = await openCard(session, { kind: "approval", request: approvalRequest(`echo ${i}`) });
      expect(opened.status).toBe(201);
      ids.push(((await opened.json()) as { interactionId: string }).interactionId);
    }
    const before = await storageFingerprint(session.sessionId);
    const refused = await openCard(session, { kind: "approval", request: approvalRequest("echo 101") });
    await expectError(refused, 429, "too_many_pending");
    expect(await storageFingerprint(session.sessionId)).toBe(before);
    const withdrawn = await api("DELETE", `/api/sessions/${session.sessionId}/interactions/${ids[0]}`, {
      token: session.agentToken,
    });
    expect(withdrawn.status).toBe(200);
    const next = await openCard(session, { kind: "approval", request: approvalRequest("echo 101") });
    expect(next.status).toBe(201);
  });
});

describe("a card's key", () => {
  it("re-attaches with the same request, and answers 409 key_conflict with another, changing nothing", async () => {
    const session = await createExternal();
    const body = { kind: "approval", request: approvalRequest("ls"), key: "toolu_same" };
    const first = await openCard(session, body);
    expect(first.status).toBe(201);
    const { interactionId } = (await first.json()) as { interactionId: string };
    // The same request with its keys in another order is the same request.
    const reordered = { risk: "execute", input: { command: "ls" }, toolName: "Bash" };
    const again = await openCard(session, { ...body, request: reordered });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ interactionId, status: "pending", created: false });
    const before = await storageFingerprint(session.sessionId);
    const other = await openCard(session, { ...body, request: approvalRequest("rm -rf ~") });
    await expectError(other, 409, "key_conflict");
    const otherKind = await openCard(session, {
      kind: "question",
      key: "toolu_same",
      request: {
        questions: [
          {
            question: "Go?",
            header: "Go",
            multiSelect: false,
            options: [
              { label: "Yes", description: "" },
              { label: "No", description: "" },
            ],
          },
        ],
      },
    });
    await expectError(otherKind, 409, "key_conflict");
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });
});

describe("an external agent's progress", () => {
  const events = (n: number) => Array.from({ length: n }, (_, i) => ({ type: "text", text: `line ${i}` }));
  const postProgress = (session: ExternalSession, token: string) =>
    api("POST", `/api/sessions/${session.sessionId}/progress`, { token, body: { events: events(50) } });

  it("is rate-limited per link: a flood gets 429 and stores nothing more, while the owner's allowance is its own", async () => {
    const session = await createExternal();
    await unlimitedHttpCommands(session);
    for (let posted = 0; posted + 50 <= PROGRESS_EVENT_BURST; posted += 50) {
      expect((await postProgress(session, session.agentToken)).status).toBe(200);
    }
    const before = await storageFingerprint(session.sessionId);
    const flooded = await postProgress(session, session.agentToken);
    expect(flooded.status).toBe(429);
    expect(flooded.headers.get("retry-after")).not.toBeNull();
    await expectError(flooded, 429, "rate_limited");
    expect(await storageFingerprint(session.sessionId)).toBe(before);
    expect((await postProgress(session, session.token)).status).toBe(200);
  });
});
