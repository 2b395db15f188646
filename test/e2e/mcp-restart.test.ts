// A 2026-07-28 MCP elicitation survives a full restart of the server: the form is stored, `wrangler
// dev` is stopped and started again on the same state, the form is answered, and the MCP call is
// retried exactly once with the answers and the server's requestState.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createSession } from "../../client/session-api";
import { startWranglerDev } from "../../scripts/wrangler-dev.mjs";
import type { RecordedCall } from "../mcp-servers/mrtr-server";
import { hasChromium } from "./browser-env";

type Event = { seq: number; type: string; data: Record<string, unknown> };

async function eventsOf(baseUrl: string, session: { sessionId: string; token: string }): Promise<Event[]> {
  const response = await fetch(`${baseUrl}/api/sessions/${session.sessionId}/events`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  return ((await response.json()) as { events: Event[] }).events;
}

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// Runs with the browser suite (it starts its own wrangler dev, which the suite's setup allows).
describe.skipIf(!hasChromium)("an MCP form across a restart of the server", () => {
  const stops: Array<() => Promise<void>> = [];
  let state = "";
  afterAll(async () => {
    for (const stop of stops) await stop();
    if (state) await rm(state, { recursive: true, force: true });
  });

  it("is answered after wrangler dev restarts, and the call is retried once with the answers", {
    timeout: 180_000,
  }, async () => {
    state = await mkdtemp(join(tmpdir(), "parley-mcp-restart-"));
    const vars = { ALLOW_SCRIPTED_SESSIONS: "true", MCP_SERVERS: inject("mcpServers") };
    const first = await startWranglerDev({ label: "mcp-restart-1", persistTo: state, vars });
    stops.push(first.stop);
    const env = `restart-${Date.now().toString(36)}`;
    const session = await createSession(
      first.baseUrl,
      {
        mcpServers: ["mrtr"],
        permissionMode: "bypassPermissions",
        script: [
          {
            content: [
              { type: "tool_use", id: "toolu_restart", name: "mcp__mrtr__confirm-deploy", input: { env } },
            ],
          },
          { content: [{ type: "text", text: "Deployed after the restart." }] },
        ],
      },
      { gatewayToken: first.gatewayToken },
    );
    const post = (baseUrl: string, route: string, body: unknown) =>
      fetch(`${baseUrl}/api/sessions/${session.sessionId}/${route}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${session.token}`,
          "content-type": "application/json",
          "x-device-id": "phone",
        },
        body: JSON.stringify(body),
      });
    expect((await post(first.baseUrl, "messages", { text: "deploy" })).status).toBe(202);
    const prompt = await until("the form", async () =>
      (await eventsOf(first.baseUrl, session)).find(
        (e) => e.type === "interaction_prompt" && e.data.kind === "form",
      ),
    );

    await first.stop();
    stops.pop();
    const second = await startWranglerDev({ label: "mcp-restart-2", persistTo: state, vars });
    stops.push(second.stop);
    const content = { confirm: true, window: "now" };
    const answered = await post(second.baseUrl, "respond", {
      interactionId: prompt.data.interactionId,
      response: { action: "accept", content },
    });
    expect(answered.status).toBe(200);
    const done = await until("the end of the turn", async () =>
      (await eventsOf(second.baseUrl, session)).find((e) => e.type === "done"),
    );
    expect(done.data.stopReason).toBe("end_turn");
    const events = await eventsOf(second.baseUrl, session);
    expect(events.find((e) => e.type === "tool_result")?.data).toMatchObject({
      toolCallId: "toolu_restart",
      content: `Deployed to ${env} (now, confirmed=true).`,
      isError: false,
    });
    const calls = (
      (await (await fetch(`${inject("mcpControlUrl")}/mrtr/calls`)).json()) as RecordedCall[]
    ).filter((call) => (call.arguments as { env: string }).env === env);
    expect(calls).toEqual([
      { arguments: { env }, inputResponses: null, requestState: null },
      {
        arguments: { env },
        inputResponses: { confirm: { action: "accept", content } },
        requestState: `deploy:${env}:round-1`,
      },
    ]);
  });
});
