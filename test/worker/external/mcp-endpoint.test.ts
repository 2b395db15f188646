// The Worker's remote permission prompt, /api/sessions/:id/mcp, driven by the real MCP client over
// Streamable HTTP: the `approve` tool opens the card on every device and returns the person's answer
// as Claude Code's decision; a repeat call re-attaches; an object restart mid-wait loses nothing.

import { exports } from "cloudflare:workers";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionObject } from "../../../src/session/session-object";
import { inside, runInDurableObject } from "../../helpers/run-in-object";
import { api, connect, type Device, ORIGIN } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";
import { createExternal, type ExternalSession, questionRequest } from "./external-fixtures";

const clients: Client[] = [];
const devices: Device[] = [];
afterEach(async () => {
  for (const device of devices.splice(0)) device.close();
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
});

/** A real MCP client connected to the session's endpoint; `legacy` speaks the 2025 protocol only. */
async function mcpClient(session: ExternalSession, token = session.agentToken, legacy = false) {
  const transport = new StreamableHTTPClientTransport(
    new URL(`${ORIGIN}/api/sessions/${session.sessionId}/mcp`),
    {
      fetch: (input, init) => exports.default.fetch(input, init),
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    },
  );
  const client = new Client({ name: "claude-code-test", version: "1.0.0" });
  clients.push(client);
  await client.connect(transport, legacy ? { prior: { kind: "legacy" } } : {});
  return client;
}

function approve(client: Client, args: Record<string, unknown>, signal?: AbortSignal) {
  return client.callTool({ name: "approve", arguments: args }, signal ? { signal } : undefined);
}

/** The decision Claude Code would parse from the tool's one text block. */
function decisionOf(result: Awaited<ReturnType<typeof approve>>): Record<string, unknown> {
  const block = (result.content as Array<{ type: string; text: string }>)[0];
  expect(block?.type).toBe("text");
  return JSON.parse(block?.text ?? "null");
}

async function phoneOf(session: ExternalSession): Promise<Device> {
  const phone = await connect(session, { device: "phone" });
  devices.push(phone);
  return phone;
}

const touch = { tool_name: "Bash", input: { command: "touch made.txt" }, tool_use_id: "toolu_touch" };

describe("the remote MCP endpoint's approve tool", () => {
  for (const legacy of [false, true]) {
    it(`opens an approval card on the phone and returns the person's approval (${legacy ? "2025" : "2026"} protocol)`, async () => {
      const session = await createExternal();
      const phone = await phoneOf(session);
      const client = await mcpClient(session, session.agentToken, legacy);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["approve"]);
      const call = approve(client, touch);
      const prompt = await phone.waitForEvent("approval_required");
      expect(prompt.data).toMatchObject({
        toolName: "Bash",
        request: { input: { command: "touch made.txt" } },
      });
      const approved = await api("POST", `/api/sessions/${session.sessionId}/approve`, {
        token: session.token,
        body: { toolCallId: prompt.data.interactionId },
      });
      expect(approved.status).toBe(200);
      expect(decisionOf(await call)).toEqual({ behavior: "allow", updatedInput: touch.input });
    });
  }

  it("turns AskUserQuestion into a question card and returns the chosen label as answers", async () => {
    const session = await createExternal();
    const phone = await phoneOf(session);
    const client = await mcpClient(session);
    const input = questionRequest();
    const call = approve(client, { tool_name: "AskUserQuestion", input, tool_use_id: "toolu_ask" });
    const prompt = await phone.waitForEvent("question_prompt");
    await api("POST", `/api/sessions/${session.sessionId}/submit-answers`, {
      token: session.token,
      body: { toolCallId: prompt.data.interactionId, answers: { "Which colour?": "Blue" } },
    });
    expect(decisionOf(await call)).toEqual({
      behavior: "allow",
      updatedInput: { ...input, answers: { "Which colour?": "Blue" } },
    });
  });

  it("says on the plan card that the plan could not be read when ExitPlanMode sends none", async () => {
    const session = await createExternal();
    const phone = await phoneOf(session);
    const client = await mcpClient(session);
    const call = approve(client, { tool_name: "ExitPlanMode", input: {}, tool_use_id: "toolu_plan" });
    const prompt = await phone.waitForEvent("interaction_prompt");
    expect(JSON.stringify(prompt.data)).toContain("cannot read the plan file");
    await api("POST", `/api/sessions/${session.sessionId}/respond`, {
      token: session.token,
      body: {
        interactionId: prompt.data.interactionId,
        response: { choice: "keep_planning", feedback: "Show it" },
      },
    });
    expect(decisionOf(await call)).toEqual({
      behavior: "deny",
      message: "The user wants you to keep planning: Show it",
    });
  });

  it("carries a denial's reason back as the message", async () => {
    const session = await createExternal();
    const phone = await phoneOf(session);
    const client = await mcpClient(session, session.token);
    const call = approve(client, touch);
    const prompt = await phone.waitForEvent("approval_required");
    await api("POST", `/api/sessions/${session.sessionId}/deny`, {
      token: session.token,
      body: { toolCallId: prompt.data.interactionId, reason: "Not here" },
    });
    expect(decisionOf(await call)).toEqual({
      behavior: "deny",
      message: "The user denied this in Parley: Not here",
    });
  });

  it("re-attaches a repeat call with the same tool_use_id to the card the first call opened", async () => {
    const session = await createExternal();
    const phone = await phoneOf(session);
    const first = await mcpClient(session);
    const gaveUp = new AbortController();
    const abandoned = approve(first, touch, gaveUp.signal);
    const prompt = await phone.waitForEvent("approval_required");
    gaveUp.abort(new Error("connection lost"));
    await expect(abandoned).rejects.toThrow();

    const again = approve(await mcpClient(session), touch);
    await runInDurableObject<SessionObject, void>(stubOf(session.sessionId), (instance) =>
      inside(instance).untilWaitingReads(1),
    );
    await api("POST", `/api/sessions/${session.sessionId}/approve`, {
      token: session.token,
      body: { toolCallId: prompt.data.interactionId },
    });
    expect(decisionOf(await again)).toMatchObject({ behavior: "allow" });
    expect(phone.events.filter((event) => event.type === "approval_required")).toHaveLength(1);
  });

  it("keeps waiting through a restart of the session's object and returns the answer given after it", async () => {
    const session = await createExternal();
    const phone = await phoneOf(session);
    const client = await mcpClient(session);
    const call = approve(client, touch);
    const prompt = await phone.waitForEvent("approval_required");
    const stub = stubOf(session.sessionId);
    await runInDurableObject<SessionObject, void>(stub, (instance) => inside(instance).untilWaitingReads(1));
    const restart = runInDurableObject<SessionObject, void>(stub, (_instance, state) =>
      state.abort("restarted"),
    );
    await expect(restart).rejects.toThrow("restarted");
    await api("POST", `/api/sessions/${session.sessionId}/approve`, {
      token: session.token,
      body: { toolCallId: prompt.data.interactionId },
    });
    expect(decisionOf(await call)).toMatchObject({ behavior: "allow" });
  });

  it("answers a call without the tool's name with an error naming the field, and opens no card", async () => {
    const session = await createExternal();
    const client = await mcpClient(session);
    const result = await approve(client, { input: { command: "ls" } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("tool_name");
    const snapshot = await api("GET", `/api/sessions/${session.sessionId}`, { token: session.token });
    expect(((await snapshot.json()) as { pending: unknown[] }).pending).toEqual([]);
  });

  it("refuses a person's link, a wrong token and a missing one before any card opens", async () => {
    const session = await createExternal();
    const link = await api("POST", `/api/sessions/${session.sessionId}/links`, {
      token: session.token,
      body: { role: "answer" },
    });
    const { token: answerToken } = (await link.json()) as { token: string };
    const post = (headers: Record<string, string>) =>
      api("POST", `/api/sessions/${session.sessionId}/mcp`, {
        headers: { accept: "application/json, text/event-stream", ...headers },
        body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      });
    const asAnswer = await post({ authorization: `Bearer ${answerToken}` });
    expect(asAnswer.status).toBe(403);
    expect(await asAnswer.text()).toContain("may not send open_interaction");
    expect((await post({ authorization: "Bearer wrong" })).status).toBe(403);
    expect((await post({})).status).toBe(401);
  });
});
