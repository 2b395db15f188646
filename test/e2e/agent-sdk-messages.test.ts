// The real Claude Agent SDK's `query()` fed by `parleyPrompts` (the built `parley/agent-sdk`) against
// `wrangler dev`: a message the person sends in Parley reaches the model as the next user turn,
// every device learns it was delivered by the Agent SDK, and stopping the session ends the query.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SessionEvent } from "../../client/client";
import {
  buildBridges,
  externalSession,
  hasClaude,
  mintAgentKey,
  ROOT,
  type Sandbox,
  sandbox,
} from "./claude-code-harness";
import { type ModelServer, startModelServer } from "./claude-model-server";
import { baseUrl } from "./harness";

type AgentSdk = typeof import("../../client/agent-sdk");

let model: ModelServer | undefined;
let box: Sandbox | undefined;
afterEach(async () => {
  await model?.close();
  await box?.remove();
  model = box = undefined;
});

const said = (text: string) => ({ content: [{ type: "text" as const, text }] });

/** Every user text the model was sent in its last main-loop request. */
function userTexts(server: ModelServer): string {
  const last = server.mainRequests().at(-1);
  const messages = (last?.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  return JSON.stringify(messages.filter((m) => m.role === "user").map((m) => m.content));
}

async function asOwner(token: string, sessionId: string, path: string, body: unknown) {
  return fetch(`${baseUrl()}/api/sessions/${sessionId}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe.skipIf(!hasClaude)("the Agent SDK's streaming input from parleyPrompts", () => {
  beforeAll(() => buildBridges());

  it("gives the model the person's message as the next user turn, and ends when the person stops the session", {
    timeout: 240_000,
  }, async () => {
    const { parleyPrompts, parleyCanUseTool } = (await import(
      join(ROOT, "dist", "agent-sdk.js")
    )) as AgentSdk;
    const key = `sdk-${randomUUID()}`;
    const session = await externalSession(baseUrl(), key, "Agent SDK");
    const agentKey = await mintAgentKey(baseUrl(), "Agent SDK messages e2e");
    model = await startModelServer([said("Hello, I am ready."), said("Renamed it.")]);
    box = await sandbox(model);
    const prompts = parleyPrompts({ server: baseUrl(), agentKey, key, prompt: "Say you are ready." });
    const run = query({
      prompt: prompts,
      options: {
        cwd: box.cwd,
        env: box.env,
        canUseTool: parleyCanUseTool({ server: baseUrl(), agentKey, key }),
      },
    });
    const results: string[] = [];
    const done = (async () => {
      for await (const message of run) {
        if (message.type === "result" && message.subtype === "success") results.push(message.result);
      }
    })();
    await expect.poll(() => results.length, { timeout: 90_000 }).toBe(1);
    expect(userTexts(model)).not.toContain("rename the branch to release");

    const sent = await asOwner(session.token, session.sessionId, "/messages", {
      text: "Please rename the branch to release",
    });
    expect(sent.status).toBe(202);
    const { messageId } = ((await sent.json()) as { result: { messageId: string } }).result;
    await expect.poll(() => results.length, { timeout: 90_000 }).toBe(2);
    expect(userTexts(model)).toContain("Please rename the branch to release");
    expect(results[1]).toBe("Renamed it.");
    const events = (await (
      await fetch(`${baseUrl()}/api/sessions/${session.sessionId}/events?after=0`, {
        headers: { authorization: `Bearer ${session.token}` },
      })
    ).json()) as { events: SessionEvent[] };
    expect(events.events.filter((event) => event.type === "message_delivered").map((e) => e.data)).toEqual([
      { messageId, bridge: "agent-sdk" },
    ]);
    expect((await asOwner(session.token, session.sessionId, "/cancel", {})).status).toBe(200);
    await done;
    expect(results).toHaveLength(2);
  });
});
