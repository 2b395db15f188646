// The person's messages to an agent that runs elsewhere: who may send them, what is refused and
// stores nothing, the bridge's long-poll read and resume, and the delivery every device sees.
import { describe, expect, it } from "vitest";
import type { AgentMessagesPage } from "../../../src/protocol/external/agent-messages";
import type { SessionObject } from "../../../src/session/session-object";
import { inside, runInDurableObject } from "../../helpers/run-in-object";
import { api, asOperator, connect } from "../../helpers/session-harness";
import { sqlRows, stubOf } from "../../helpers/session-object-probe";
import { expectError, mintLink } from "../access/access-fixtures";
import { shrinkHttpBudget } from "../access/command-budget-fixtures";
import { storageFingerprint } from "../session-api/channel-fixtures";
import { createExternal, type ExternalSession } from "./external-fixtures";

const send = (session: ExternalSession, body: unknown, token = session.token, headers = {}) =>
  api("POST", `/api/sessions/${session.sessionId}/messages`, { token, body, headers });

async function sent(session: ExternalSession, text: string, extra: Record<string, unknown> = {}) {
  const response = await send(session, { text, ...extra });
  expect(response.status, await response.clone().text()).toBe(202);
  return ((await response.json()) as { result: { messageId: string } }).result.messageId;
}

async function read(session: ExternalSession, query = "", token = session.agentToken) {
  const response = await api("GET", `/api/sessions/${session.sessionId}/messages${query}`, { token });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as AgentMessagesPage;
}

const delivered = (session: ExternalSession, messageId: string, token = session.agentToken) =>
  api("POST", `/api/sessions/${session.sessionId}/messages/${messageId}/delivered`, {
    token,
    body: { bridge: "parley acp" },
  });

async function untilWaiting(session: ExternalSession): Promise<void> {
  await runInDurableObject<SessionObject, void>(stubOf(session.sessionId), (instance) =>
    inside(instance).untilWaitingReads(1),
  );
}

async function storedMessages(session: ExternalSession) {
  return sqlRows<{ message_id: string; delivered_by: string | null }>(
    session.sessionId,
    `SELECT message_id, delivered_by FROM agent_messages ORDER BY seq`,
  );
}

describe("a message to an external session's agent", () => {
  it("is taken from the owner and an answer link, and every device sees it waiting for the agent", async () => {
    const session = await createExternal();
    const phone = await connect(session, { device: "phone" });
    const fromOwner = await sent(session, "use the staging database");
    const answer = await mintLink(session, { role: "answer", label: "Ana" });
    const response = await send(session, { text: "and run the tests" }, answer.token);
    expect(response.status).toBe(202);
    const fromLink = ((await response.json()) as { result: { messageId: string } }).result.messageId;
    const shown = await phone.waitForEvent("user_message", (event) => event.data.messageId === fromLink);
    expect(shown.data).toMatchObject({ text: "and run the tests", awaitsAgent: true });
    expect(shown.data.by).toMatch(/^Ana \(share link/);
    const page = await read(session);
    expect(page).toEqual({
      messages: [
        expect.objectContaining({ messageId: fromOwner, text: "use the staging database", interrupt: false }),
        expect.objectContaining({ messageId: fromLink, text: "and run the tests", interrupt: false }),
      ],
      stopped: false,
    });
    phone.close();
  });

  it("is refused from the agent's link, a view link and an agent key, and stores nothing", async () => {
    const session = await createExternal();
    const view = await mintLink(session, { role: "view" });
    const minted = await asOperator("POST", "/api/agent-keys", { body: { label: "laptop" } });
    expect(minted.status).toBe(201);
    const { key } = (await minted.json()) as { key: string };
    const before = await storageFingerprint(session.sessionId);
    await expectError(await send(session, { text: "approve it" }, session.agentToken), 403, "forbidden");
    await expectError(await send(session, { text: "approve it" }, view.token), 403, "forbidden");
    await expectError(await send(session, { text: "approve it" }, key), 403, "forbidden");
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });

  it("refuses malformed JSON, an empty or oversized text and an unknown field, storing nothing", async () => {
    const session = await createExternal();
    const before = await storageFingerprint(session.sessionId);
    const path = `/api/sessions/${session.sessionId}/messages`;
    await expectError(
      await api("POST", path, { token: session.token, rawBody: '{"text": "hi"' }),
      400,
      "bad_json",
    );
    await expectError(await send(session, { text: "   " }), 400, "invalid_input");
    await expectError(await send(session, { text: "x".repeat(32_001) }), 400, "invalid_input");
    await expectError(await send(session, { text: "x".repeat(70_000) }), 413, "payload_too_large");
    await expectError(await send(session, { text: "hi", interrupt: "yes" }), 400, "invalid_input");
    await expectError(await send(session, { text: "hi", to: "someone" }), 400, "invalid_input");
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });

  it("is rate-limited per credential with 429 and Retry-After", async () => {
    const session = await createExternal();
    await shrinkHttpBudget(session.sessionId, 2);
    await sent(session, "one");
    await sent(session, "two");
    const third = await send(session, { text: "three" });
    expect(third.headers.get("retry-after")).toMatch(/^\d+$/);
    await expectError(third, 429, "rate_limited");
    expect((await storedMessages(session)).length).toBe(2);
  });

  it("sent again with the same Idempotency-Key answers the first messageId and is stored once", async () => {
    const session = await createExternal();
    const phone = await connect(session, { device: "phone" });
    const headers = { "idempotency-key": "retry-1" };
    const first = await send(session, { text: "deploy when green" }, session.token, headers);
    const again = await send(session, { text: "deploy when green" }, session.token, headers);
    expect([first.status, again.status]).toEqual([202, 202]);
    const ids = await Promise.all(
      [first, again].map(
        async (r) => ((await r.json()) as { result: { messageId: string } }).result.messageId,
      ),
    );
    expect(ids[1]).toBe(ids[0]);
    expect((await storedMessages(session)).map((row) => row.message_id)).toEqual([ids[0]]);
    const events = await sqlRows<{ n: number }>(
      session.sessionId,
      `SELECT COUNT(*) AS n FROM events WHERE type = 'user_message'`,
    );
    expect(events[0]?.n).toBe(1);
    phone.close();
  });

  it("is 409 once the person stopped the session, and a waiting read learns it stopped", async () => {
    const session = await createExternal();
    const waiting = read(session, "?wait=50");
    await untilWaiting(session);
    const stopped = await api("POST", `/api/sessions/${session.sessionId}/cancel`, { token: session.token });
    expect(stopped.status).toBe(200);
    expect(await waiting).toEqual({ messages: [], stopped: true });
    const before = await storageFingerprint(session.sessionId);
    await expectError(await send(session, { text: "are you there?" }), 409, "session_stopped");
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });
});

describe("the agent's bridge reading messages", () => {
  it("gets a message posted after its read began waiting", async () => {
    const session = await createExternal();
    const waiting = read(session, "?wait=55");
    await untilWaiting(session);
    const messageId = await sent(session, "stop and explain", { interrupt: true });
    expect(await waiting).toEqual({
      messages: [expect.objectContaining({ messageId, text: "stop and explain", interrupt: true })],
      stopped: false,
    });
  });

  it("resumes after the last message it has, and without a cursor gets those not yet delivered", async () => {
    const session = await createExternal();
    const first = await sent(session, "first");
    const second = await sent(session, "second");
    const third = await sent(session, "third");
    expect((await read(session, `?after=${first}`)).messages.map((m) => m.messageId)).toEqual([
      second,
      third,
    ]);
    expect((await read(session, `?after=${third}`)).messages).toEqual([]);
    expect((await delivered(session, first)).status).toBe(200);
    expect((await read(session)).messages.map((m) => m.messageId)).toEqual([second, third]);
    await expectError(
      await api("GET", `/api/sessions/${session.sessionId}/messages?after=msg_unknown`, {
        token: session.agentToken,
      }),
      404,
      "unknown_message",
    );
    await expectError(
      await api("GET", `/api/sessions/${session.sessionId}/messages?wait=61`, { token: session.agentToken }),
      400,
      "invalid_input",
    );
  });

  it("is refused to an answer link and a view link: messages are the agent's to read", async () => {
    const session = await createExternal();
    await sent(session, "secret plan");
    for (const role of ["answer", "view"]) {
      const link = await mintLink(session, { role });
      await expectError(
        await api("GET", `/api/sessions/${session.sessionId}/messages`, { token: link.token }),
        403,
        "forbidden",
      );
      await expectError(await delivered(session, "msg_x", link.token), 403, "forbidden");
    }
  });

  it("acknowledges a delivery once: every device sees message_delivered naming the bridge", async () => {
    const session = await createExternal();
    const phone = await connect(session, { device: "phone" });
    const messageId = await sent(session, "rename the branch");
    const ack = await delivered(session, messageId);
    expect(await ack.json()).toEqual({ messageId, bridge: "parley acp", duplicate: false });
    const event = await phone.waitForEvent("message_delivered", (e) => e.data.messageId === messageId);
    expect(event.data).toEqual({ messageId, bridge: "parley acp" });
    const again = await api("POST", `/api/sessions/${session.sessionId}/messages/${messageId}/delivered`, {
      token: session.agentToken,
      body: { bridge: "another" },
    });
    expect(await again.json()).toEqual({ messageId, bridge: "parley acp", duplicate: true });
    expect(await storedMessages(session)).toEqual([{ message_id: messageId, delivered_by: "parley acp" }]);
    await expectError(await delivered(session, "msg_nothing"), 404, "unknown_message");
    phone.close();
  });
});

describe("a message from the person's inbox", () => {
  it("reaches the agent as the person's, and is 401 to a request that is no one", async () => {
    const session = await createExternal();
    const response = await asOperator("POST", `/api/inbox/sessions/${session.sessionId}/messages`, {
      body: { text: "from my inbox" },
    });
    expect(response.status, await response.clone().text()).toBe(202);
    expect((await read(session)).messages.map((m) => m.text)).toEqual(["from my inbox"]);
    await expectError(
      await api("POST", `/api/inbox/sessions/${session.sessionId}/messages`, { body: { text: "hi" } }),
      401,
      "unauthorized",
    );
  });
});
