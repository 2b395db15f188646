import type {
  AnyMessage,
  CreateElicitationResponse,
  RequestPermissionOutcome,
  Stream,
} from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { AcpProxy } from "../../../../bin/acp/acp-proxy";
import type { ParleySessions } from "../../../../bin/acp/parley-sessions";

/** One side of the proxy: what the test sends in, and what the proxy wrote out. */
function side() {
  const inbound = new TransformStream<AnyMessage, AnyMessage>();
  const written: AnyMessage[] = [];
  const waiters = new Set<() => void>();
  const stream: Stream = {
    readable: inbound.readable,
    writable: new WritableStream<AnyMessage>({
      write(message) {
        written.push(message);
        for (const wake of waiters) wake();
      },
    }),
  };
  const writer = inbound.writable.getWriter();
  return {
    stream,
    written,
    send: (message: Record<string, unknown>) => writer.write({ jsonrpc: "2.0", ...message } as AnyMessage),
    close: () => writer.close(),
    /** Resolves once the proxy has written `count` messages to this side. */
    until: (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (written.length < count) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
  };
}

/** Parley as the proxy sees it: each ask waits for the test to answer, or for its signal. */
function fakeParley() {
  const asks: Array<{ answer: (outcome: RequestPermissionOutcome) => void; signal: AbortSignal }> = [];
  const elicits: Array<{ answer: (result: CreateElicitationResponse) => void; signal: AbortSignal }> = [];
  const withdrawn: string[] = [];
  const located: Array<[string, string]> = [];
  const parley = {
    located: (sessionId: string, cwd: string) => located.push([sessionId, cwd]),
    ask: (_params: unknown, _id: unknown, signal: AbortSignal) =>
      new Promise<RequestPermissionOutcome>((resolve, reject) => {
        asks.push({ answer: resolve, signal });
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      }),
    elicit: (_sessionId: string, _card: unknown, signal: AbortSignal) =>
      new Promise<CreateElicitationResponse>((resolve, reject) => {
        elicits.push({ answer: resolve, signal });
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      }),
    prompt: () => {},
    update: () => {},
    stopped: () => {},
    named: () => {},
    withdrawAll: (sessionId?: string) => withdrawn.push(sessionId ?? "*"),
  };
  return { parley: parley as unknown as ParleySessions, asks, elicits, withdrawn, located };
}

const PERMISSION = {
  id: 5,
  method: "session/request_permission",
  params: {
    sessionId: "s1",
    toolCall: { toolCallId: "toolu_1", title: "touch a" },
    options: [
      { optionId: "yes", name: "Allow", kind: "allow_once" },
      { optionId: "no", name: "Reject", kind: "reject_once" },
    ],
  },
};

function setUp() {
  const editor = side();
  const agent = side();
  const fake = fakeParley();
  const proxy = new AcpProxy(editor.stream, agent.stream, fake.parley, () => {});
  const ended = proxy.run();
  return { editor, agent, ...fake, ended };
}

describe("the ACP proxy's permission race", () => {
  it("answers the agent once with Parley's answer and cancels the editor's request", async () => {
    const { editor, agent, asks } = setUp();
    await agent.send(PERMISSION);
    await editor.until(1);
    expect(editor.written[0]).toEqual({ jsonrpc: "2.0", ...PERMISSION });
    asks[0]?.answer({ outcome: "selected", optionId: "yes" });
    await editor.until(2);
    expect(editor.written[1]).toEqual({
      jsonrpc: "2.0",
      method: "$/cancel_request",
      params: { requestId: 5 },
    });
    expect(agent.written).toEqual([
      { jsonrpc: "2.0", id: 5, result: { outcome: { outcome: "selected", optionId: "yes" } } },
    ]);
    // The editor's late answer to the cancelled request does not reach the agent.
    await editor.send({ id: 5, result: { outcome: { outcome: "selected", optionId: "no" } } });
    await editor.send({ method: "session/cancel", params: { sessionId: "s1" } });
    await agent.until(2);
    expect(agent.written.map((m) => (m as { method?: string }).method ?? "response")).toEqual([
      "response",
      "session/cancel",
    ]);
  });

  it("passes the editor's answer to the agent and withdraws the Parley card", async () => {
    const { editor, agent, asks } = setUp();
    await agent.send(PERMISSION);
    await editor.until(1);
    const answer = { id: 5, result: { outcome: { outcome: "selected", optionId: "no" } } };
    await editor.send(answer);
    await agent.until(1);
    expect(agent.written).toEqual([{ jsonrpc: "2.0", ...answer }]);
    expect(asks[0]?.signal.aborted).toBe(true);
    // Parley answering after the editor changes nothing.
    asks[0]?.answer({ outcome: "selected", optionId: "yes" });
    await editor.send({ method: "session/cancel", params: { sessionId: "s1" } });
    await agent.until(2);
    expect(agent.written).toHaveLength(2);
    expect(editor.written).toHaveLength(1);
  });

  it("passes every other message unchanged in both directions", async () => {
    const { editor, agent, located } = setUp();
    const request = { id: "a", method: "session/new", params: { cwd: "/p", mcpServers: [], extra: [1] } };
    const update = {
      method: "session/update",
      params: { sessionId: "s1", update: { sessionUpdate: "weird" } },
    };
    await editor.send(request);
    await agent.send(update);
    await agent.send({ id: "a", result: { sessionId: "s1" } });
    await editor.until(2);
    await agent.until(1);
    expect(agent.written).toEqual([{ jsonrpc: "2.0", ...request }]);
    expect(editor.written).toEqual([
      { jsonrpc: "2.0", ...update },
      { jsonrpc: "2.0", id: "a", result: { sessionId: "s1" } },
    ]);
    expect(located).toEqual([["s1", "/p"]]);
  });

  it("withdraws the session's cards on session/cancel, leaves the editor to answer what it holds, and ends when the agent's side closes", async () => {
    const { editor, agent, asks, ended } = setUp();
    await agent.send(PERMISSION);
    await editor.until(1);
    await editor.send({ method: "session/cancel", params: { sessionId: "s1" } });
    await agent.until(1);
    expect(asks[0]?.signal.aborted).toBe(true);
    // The editor answers its own request, as ACP asks of a client that cancels.
    const answer = { id: 5, result: { outcome: { outcome: "cancelled" } } };
    await editor.send(answer);
    await agent.until(2);
    expect(agent.written[1]).toEqual({ jsonrpc: "2.0", ...answer });
    await agent.close();
    expect(await ended).toBe("agent");
  });
});

describe("an ACP agent's elicitation through the proxy", () => {
  const FORM = {
    id: 9,
    method: "elicitation/create",
    params: {
      sessionId: "s1",
      mode: "form",
      message: "Which branch?",
      requestedSchema: { type: "object", properties: { branch: { type: "string" } } },
    },
  };

  it("tells the agent both modes are shown, keeping what else the editor advertised", async () => {
    const { editor, agent } = setUp();
    await editor.send({
      id: 1,
      method: "initialize",
      params: { protocolVersion: 1, clientCapabilities: { terminal: true, elicitation: { form: {} } } },
    });
    await agent.until(1);
    expect(agent.written[0]).toEqual({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: 1,
        clientCapabilities: { terminal: true, elicitation: { form: {}, url: {} } },
      },
    });
  });

  it("asks in Parley alone a mode the editor does not show, and the editor never sees it", async () => {
    const { editor, agent, elicits } = setUp();
    await editor.send({
      id: 1,
      method: "initialize",
      params: { protocolVersion: 1, clientCapabilities: {} },
    });
    await agent.until(1);
    await agent.send(FORM);
    await expect.poll(() => elicits.length).toBe(1);
    elicits[0]?.answer({ action: "accept", content: { branch: "main" } });
    await agent.until(2);
    expect(agent.written[1]).toEqual({
      jsonrpc: "2.0",
      id: 9,
      result: { action: "accept", content: { branch: "main" } },
    });
    expect(editor.written).toEqual([]);
  });

  it("answers the agent with the reason when Parley cannot show the form and the editor does not", async () => {
    const { agent, elicits } = setUp();
    const nested = { type: "object", properties: { to: { type: "object", properties: {} } } };
    await agent.send({ ...FORM, params: { ...FORM.params, requestedSchema: nested } });
    await agent.until(1);
    expect(agent.written[0]).toMatchObject({
      id: 9,
      error: { code: -32602, message: expect.stringContaining("nested objects are not supported") },
    });
    expect(elicits).toEqual([]);
  });
});

describe("the working folder of an ACP session", () => {
  it("is the cwd the editor gave session/new, for the session the agent answers with", async () => {
    const { editor, agent, located } = setUp();
    await editor.send({ id: 1, method: "session/new", params: { cwd: "/home/me/app", mcpServers: [] } });
    await agent.until(1);
    await agent.send({ id: 1, result: { sessionId: "s7" } });
    await editor.until(1);
    expect(located).toEqual([["s7", "/home/me/app"]]);
  });

  it("is the cwd the editor gave session/load, and never one the agent names", async () => {
    const { editor, agent, located } = setUp();
    await editor.send({
      id: 2,
      method: "session/load",
      params: { sessionId: "s8", cwd: "/srv/app", mcpServers: [] },
    });
    await agent.until(1);
    expect(located).toEqual([["s8", "/srv/app"]]);
    // An agent's own request or notification that names a folder changes nothing.
    await agent.send({
      method: "session/update",
      params: { sessionId: "s8", cwd: "/etc", update: { sessionUpdate: "x" } },
    });
    await agent.send({
      id: 9,
      method: "fs/read_text_file",
      params: { sessionId: "s8", cwd: "/etc", path: "/a" },
    });
    await editor.until(2);
    expect(located).toEqual([["s8", "/srv/app"]]);
  });
});
