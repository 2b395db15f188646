import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ExternalInteraction } from "../../../src/protocol/external/external";
import type { SessionObject } from "../../../src/session/session-object";
import { inside, runInDurableObject } from "../../helpers/run-in-object";
import { api, connect } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";
import { expectError } from "../access/access-fixtures";
import { storageFingerprint } from "../session-api/channel-fixtures";
import {
  approvalRequest,
  createExternal,
  type ExternalSession,
  openApproval,
  openCard,
  passDeadlines,
  questionRequest,
  readCard,
} from "./external-fixtures";

async function read(session: ExternalSession, id: string, query = ""): Promise<ExternalInteraction> {
  const response = await readCard(session, id, query);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as ExternalInteraction;
}

/** Resolves once the object holds `n` long-poll reads open (the object signals it). */
async function untilWaiting(session: ExternalSession, n = 1): Promise<void> {
  await runInDurableObject<SessionObject, void>(stubOf(session.sessionId), (instance) =>
    inside(instance).untilWaitingReads(n),
  );
}

const approve = (session: ExternalSession, toolCallId: string, extra: Record<string, unknown> = {}) =>
  api("POST", `/api/sessions/${session.sessionId}/approve`, {
    token: session.token,
    body: { toolCallId, ...extra },
  });

describe("a card an external agent opens", () => {
  it("reaches every device marked with the agent's name, and its answer reaches the agent", async () => {
    const session = await createExternal();
    const phone = await connect(session, { device: "phone" });
    const laptop = await connect(session, { device: "laptop" });
    const id = await openApproval(session);
    for (const device of [phone, laptop]) {
      const prompt = await device.waitForEvent(
        "approval_required",
        (event) => event.data.interactionId === id,
      );
      expect(prompt.data).toMatchObject({ kind: "approval", toolName: "Bash", agent: "Claude Code" });
    }
    expect(await read(session, id)).toMatchObject({ status: "pending", resolution: null, key: null });
    const approved = await api("POST", `/api/sessions/${session.sessionId}/approve`, {
      token: session.token,
      headers: { "x-device-id": "phone" },
      body: { toolCallId: id },
    });
    expect(approved.status).toBe(200);
    expect(await read(session, id)).toMatchObject({
      status: "resolved",
      resolution: { outcome: "approved", response: { decision: "approve", remember: false }, by: "phone" },
    });
    // No tool result is invented for it: the agent runs the tool itself.
    expect(laptop.events.some((event) => event.type === "tool_result")).toBe(false);
    phone.close();
    laptop.close();
  });

  it("answers a waiting read as soon as the card resolves", async () => {
    const session = await createExternal();
    const id = await openCard(session, { kind: "question", request: questionRequest() })
      .then((response) => response.json())
      .then((body) => (body as { interactionId: string }).interactionId);
    const waiting = read(session, id, "?wait=55");
    await untilWaiting(session);
    const answered = await api("POST", `/api/sessions/${session.sessionId}/submit-answers`, {
      token: session.token,
      body: { toolCallId: id, answers: { "Which colour?": "Blue" } },
    });
    expect(answered.status).toBe(200);
    const result = await waiting;
    expect(result).toMatchObject({ status: "resolved", resolution: { outcome: "answered" } });
    expect(JSON.stringify(result.resolution?.response)).toContain("Blue");
  });

  it("times out on the session's alarm, and a waiting read learns timed_out", async () => {
    const session = await createExternal();
    const id = await openApproval(session, { timeoutMs: 120_000 });
    const opened = await read(session, id);
    expect(opened.expiresAt - opened.createdAt).toBe(120_000);
    const waiting = read(session, id, "?wait=50");
    await untilWaiting(session);
    await passDeadlines(session);
    expect(await waiting).toMatchObject({
      status: "resolved",
      resolution: { outcome: "timed_out", response: null },
    });
    await expectError(await approve(session, id), 409, "already_resolved");
  });

  it("returns the same card for a repeated key, pending and after it resolved", async () => {
    const session = await createExternal();
    const body = { kind: "approval", request: approvalRequest(), key: "toolu_01ABC" };
    const first = await openCard(session, body);
    expect(first.status).toBe(201);
    const { interactionId } = (await first.json()) as { interactionId: string };
    const before = await storageFingerprint(session.sessionId);
    const again = await openCard(session, body);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ interactionId, status: "pending", created: false });
    expect(await storageFingerprint(session.sessionId)).toBe(before);
    await approve(session, interactionId);
    const afterAnswer = await openCard(session, body);
    expect(await afterAnswer.json()).toEqual({ interactionId, status: "resolved", created: false });
    expect(await read(session, interactionId)).toMatchObject({ key: "toolu_01ABC" });
    const other = await openCard(session, { ...body, key: "toolu_02DEF" });
    expect(other.status).toBe(201);
  });

  it("is withdrawn by the agent: cancelled on every device, and no one can answer it after", async () => {
    const session = await createExternal();
    const phone = await connect(session, { device: "phone" });
    const id = await openApproval(session);
    const waiting = read(session, id, "?wait=50");
    await untilWaiting(session);
    const withdrawn = await api("DELETE", `/api/sessions/${session.sessionId}/interactions/${id}`, {
      token: session.agentToken,
    });
    expect(withdrawn.status).toBe(200);
    const event = await phone.waitForEvent("interaction_resolved", (e) => e.data.interactionId === id);
    expect(event.data).toMatchObject({
      outcome: "cancelled",
      withdrawn: true,
      resolvedBy: "agent:Claude Code",
    });
    expect(await waiting).toMatchObject({ resolution: { outcome: "withdrawn" } });
    await expectError(await approve(session, id), 409, "already_resolved");
    phone.close();
  });

  it("survives eviction while pending: the card, its key and its answer are all stored", async () => {
    const session = await createExternal();
    const id = await openApproval(session, { key: "toolu_evicted" });
    await evictDurableObject(stubOf(session.sessionId));
    expect(await read(session, id)).toMatchObject({ status: "pending", key: "toolu_evicted" });
    const again = await openCard(session, {
      kind: "approval",
      request: approvalRequest(),
      key: "toolu_evicted",
    });
    expect(await again.json()).toMatchObject({ interactionId: id, created: false });
    await approve(session, id);
    await evictDurableObject(stubOf(session.sessionId));
    expect(await read(session, id)).toMatchObject({ resolution: { outcome: "approved" } });
  });

  it("reads the same after eviction in every state, and its key still finds it", async () => {
    const session = await createExternal();
    const settle: Record<string, (id: string) => Promise<unknown>> = {
      pending: async () => {},
      approved: (id) => approve(session, id),
      denied: (id) =>
        api("POST", `/api/sessions/${session.sessionId}/deny`, {
          token: session.token,
          body: { toolCallId: id },
        }),
      withdrawn: (id) =>
        api("DELETE", `/api/sessions/${session.sessionId}/interactions/${id}`, { token: session.agentToken }),
    };
    const cards: Array<[string, string]> = [];
    for (const [state, act] of Object.entries(settle)) {
      const id = await openApproval(session, { key: `toolu_${state}` });
      await act(id);
      cards.push([state, id]);
    }
    const before = await Promise.all(cards.map(([, id]) => read(session, id)));
    await evictDurableObject(stubOf(session.sessionId));
    const after = await Promise.all(cards.map(([, id]) => read(session, id)));
    expect(after).toEqual(before);
    expect(after.map((card) => card.resolution?.outcome ?? card.status)).toEqual([
      "pending",
      "approved",
      "denied",
      "withdrawn",
    ]);
    for (const [state, id] of cards) {
      const again = await openCard(session, {
        kind: "approval",
        request: approvalRequest(),
        key: `toolu_${state}`,
      });
      expect(((await again.json()) as { interactionId: string }).interactionId).toBe(id);
    }
    // The pending one still times out on the alarm of the new instance.
    await passDeadlines(session);
    expect(await read(session, cards[0]?.[1] ?? "")).toMatchObject({ resolution: { outcome: "timed_out" } });
  });

  it("answers a read whose waiter was lost to eviction with the stored card, still pending, when its time ends", async () => {
    const session = await createExternal();
    const id = await openApproval(session);
    // The shortest wait there is: the read's own time limit is what ends it here.
    const waiting = read(session, id, "?wait=1");
    await untilWaiting(session);
    await evictDurableObject(stubOf(session.sessionId));
    expect(await waiting).toMatchObject({ status: "pending", resolution: null });
  });

  it("opens and withdraws over the agent's socket too", async () => {
    const session = await createExternal();
    const agent = await connect(session, { token: session.agentToken });
    const opened = await agent.request({
      type: "open_interaction",
      kind: "approval",
      request: approvalRequest(),
      key: "toolu_socket",
    });
    expect(opened).toMatchObject({ ok: true, result: { status: "pending", created: true } });
    const { interactionId } = opened.result as { interactionId: string };
    const withdrawn = await agent.request({ type: "withdraw_interaction", interactionId });
    expect(withdrawn).toMatchObject({ ok: true, result: { resolution: { outcome: "withdrawn" } } });
    agent.close();
  });
});

describe("a page an external agent asks a person to visit", () => {
  it("is shown without any MCP server's name the agent claims for it", async () => {
    const session = await createExternal();
    const phone = await connect(session, { device: "phone" });
    const request = {
      mode: "url",
      message: "Sign in to your bank",
      url: "https://bank.example/login",
      from: { server: "bank", host: "bank.example" },
    };
    const opened = await openCard(session, { kind: "url", request });
    expect(opened.status, await opened.clone().text()).toBe(201);
    const prompt = await phone.waitForEvent("interaction_prompt", (event) => event.data.kind === "url");
    expect(prompt.data.request).toEqual({
      mode: "url",
      message: "Sign in to your bank",
      url: "https://bank.example/login",
    });
    phone.close();
  });
});

describe("bad input to the external API", () => {
  it("refuses an unknown kind, and a request that does not fit its kind naming the field, storing nothing", async () => {
    const session = await createExternal();
    // The agent link's first use is noted in its "last used" column; that is not what is tested.
    await api("GET", `/api/sessions/${session.sessionId}`, { token: session.agentToken });
    const before = await storageFingerprint(session.sessionId);
    const unknownKind = await openCard(session, { kind: "poll", request: {} });
    expect(unknownKind.status).toBe(400);
    expect(((await unknownKind.json()) as { error: { message: string } }).error.message).toMatch(
      /kind: unknown interaction kind "poll"/,
    );
    const misfit = await openCard(session, { kind: "approval", request: { input: {}, risk: "execute" } });
    expect(misfit.status).toBe(400);
    expect(((await misfit.json()) as { error: { message: string } }).error.message).toMatch(
      /request\.toolName/,
    );
    const badQuestion = await openCard(session, { kind: "question", request: { questions: [] } });
    expect(((await badQuestion.json()) as { error: { message: string } }).error.message).toMatch(
      /request\.questions/,
    );
    await expectError(await openCard(session, { kind: "approval" }), 400, "invalid_input");
    await expectError(
      await openCard(session, { kind: "approval", request: approvalRequest(), key: "has space" }),
      400,
      "invalid_input",
    );
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });

  it("refuses a wait over 60 seconds (400) and a read of an unknown card (404), changing nothing", async () => {
    const session = await createExternal();
    const id = await openApproval(session);
    const before = await storageFingerprint(session.sessionId);
    await expectError(await readCard(session, id, "?wait=61"), 400, "invalid_input");
    await expectError(await readCard(session, id, "?wait=soon"), 400, "invalid_input");
    await expectError(await readCard(session, "ext_nothing_here", "?wait=5"), 404, "unknown_interaction");
    await expectError(await readCard(session, "not an id!"), 404, "unknown_interaction");
    const gone = await api("DELETE", `/api/sessions/${session.sessionId}/interactions/ext_nothing_here`, {
      token: session.agentToken,
    });
    await expectError(gone, 404, "unknown_interaction");
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });
});
