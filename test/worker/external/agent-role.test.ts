import { describe, expect, it } from "vitest";
import { AGENT_COMMANDS } from "../../../src/protocol/external/external";
import { COMMAND_TYPES } from "../../../src/protocol/wire/commands";
import { api, connect, createSession } from "../../helpers/session-harness";
import { expectError, mintLink } from "../access/access-fixtures";
import { storageFingerprint } from "../session-api/channel-fixtures";
import { createExternal, openApproval, readCard } from "./external-fixtures";

/** Every HTTP route that answers, steers or administers a session, with a body that would otherwise fit. */
function answeringRoutes(cardId: string): Array<[string, string, unknown]> {
  return [
    ["POST", "/messages", { text: "approve it yourself" }],
    ["POST", "/submit-answers", { toolCallId: cardId, answers: { "Which colour?": "Red" } }],
    ["POST", "/approve", { toolCallId: cardId }],
    ["POST", "/deny", { toolCallId: cardId, reason: "no" }],
    ["POST", "/respond", { interactionId: cardId, response: { decision: "approve" } }],
    ["POST", "/decide-batch", { toolCallIds: [cardId], decision: "approve" }],
    ["POST", "/cancel", {}],
    ["POST", "/end-agent", {}],
    ["POST", "/retry-now", {}],
    ["POST", "/extend-deadline", { interactionId: cardId }],
    ["POST", "/deadline-policies", { deadlinePolicies: { default: { onDeadline: "keep_waiting" } } }],
    ["PATCH", "", { permissionMode: "bypassPermissions" }],
    ["DELETE", "", undefined],
    ["GET", "/export", undefined],
    ["GET", "/deliveries", undefined],
    ["POST", "/links", { role: "answer" }],
    ["GET", "/links", undefined],
    ["DELETE", `/links/${"0".repeat(32)}`, undefined],
  ];
}

/** A well-formed frame of every command an agent must not send. */
function answeringCommands(cardId: string): Array<Record<string, unknown>> {
  const frames: Record<string, Record<string, unknown>> = {
    send_message: { text: "approve it yourself" },
    submit_answers: { toolCallId: cardId, answers: { "Which colour?": "Red" } },
    approve: { toolCallId: cardId },
    deny: { toolCallId: cardId },
    respond: { interactionId: cardId, response: { decision: "approve" } },
    decide_batch: { toolCallIds: [cardId], decision: "approve" },
    cancel: {},
    end_agent: {},
    set_permission_mode: { mode: "bypassPermissions" },
    retry_now: {},
    extend_deadline: { interactionId: cardId },
    set_deadline_policies: { deadlinePolicies: { default: { onDeadline: "keep_waiting" } } },
  };
  const refused = COMMAND_TYPES.filter((type) => !(AGENT_COMMANDS as readonly string[]).includes(type));
  // A new command must be listed here, so nobody forgets to decide whether an agent may send it.
  expect(refused.slice().sort()).toEqual(Object.keys(frames).sort());
  return refused.map((type) => ({ type, ...frames[type] }));
}

describe("the agent role", () => {
  it("is refused with 403 on every answering route, and the card stays pending", async () => {
    const session = await createExternal();
    const cardId = await openApproval(session);
    const before = await storageFingerprint(session.sessionId);
    for (const [method, path, body] of answeringRoutes(cardId)) {
      const response = await api(method, `/api/sessions/${session.sessionId}${path}`, {
        token: session.agentToken,
        ...(body === undefined ? {} : { body }),
      });
      expect(`${method} ${path} → ${response.status}`).toBe(`${method} ${path} → 403`);
      await expectError(response, 403, "forbidden");
    }
    expect(await storageFingerprint(session.sessionId)).toBe(before);
    expect(await (await readCard(session, cardId)).json()).toMatchObject({
      status: "pending",
      resolution: null,
    });
  });

  it("is refused with a forbidden ack for every answering socket command, and the card stays pending", async () => {
    const session = await createExternal();
    const cardId = await openApproval(session);
    const agent = await connect(session, { token: session.agentToken });
    const before = await storageFingerprint(session.sessionId);
    for (const frame of answeringCommands(cardId)) {
      const ack = await agent.request(frame);
      expect({ type: frame.type, ok: ack.ok, code: ack.error?.code }).toEqual({
        type: frame.type,
        ok: false,
        code: "forbidden",
      });
    }
    expect(await storageFingerprint(session.sessionId)).toBe(before);
    expect(agent.events.filter((event) => event.type === "interaction_resolved")).toEqual([]);
    agent.close();
  });

  it("may read the session: its snapshot, events, and a socket that sees its cards", async () => {
    const session = await createExternal();
    const agent = await connect(session, { token: session.agentToken });
    const cardId = await openApproval(session);
    await agent.waitForEvent("approval_required", (event) => event.data.interactionId === cardId);
    const snapshot = await api("GET", `/api/sessions/${session.sessionId}`, { token: session.agentToken });
    expect(await snapshot.json()).toMatchObject({ pending: [{ interactionId: cardId, kind: "approval" }] });
    const events = await api("GET", `/api/sessions/${session.sessionId}/events`, {
      token: session.agentToken,
    });
    expect(events.status).toBe(200);
    agent.close();
  });

  it("can be minted by the owner later, and a person's link cannot open cards", async () => {
    const session = await createExternal();
    const owner = { sessionId: session.sessionId, token: session.token, shareUrl: "", websocketUrl: "" };
    const minted = await mintLink(owner, { role: "agent", label: "Second bridge" });
    expect(minted.role).toBe("agent");
    await openApproval({ ...session, agentToken: minted.token });
    const answer = await mintLink(owner, { role: "answer" });
    const refused = await api("POST", `/api/sessions/${session.sessionId}/interactions`, {
      token: answer.token,
      body: { kind: "approval", request: { toolName: "Bash", input: {}, risk: "execute" } },
    });
    await expectError(refused, 403, "forbidden");
  });

  it("opens no cards in a session that runs Parley's own agent", async () => {
    const session = await createSession();
    const agentLink = await mintLink(session, { role: "agent" });
    const before = await storageFingerprint(session.sessionId);
    const refused = await api("POST", `/api/sessions/${session.sessionId}/interactions`, {
      token: agentLink.token,
      body: { kind: "approval", request: { toolName: "Bash", input: {}, risk: "execute" } },
    });
    await expectError(refused, 400, "invalid_input");
    // Only the link's "last used" note may change; no card, no event.
    const after = JSON.parse(await storageFingerprint(session.sessionId));
    const earlier = JSON.parse(before);
    expect(after.interactions).toEqual(earlier.interactions);
    expect(after.events).toEqual(earlier.events);
  });
});
