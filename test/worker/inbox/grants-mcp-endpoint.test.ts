// Grants answer the remote permission prompt too (/api/sessions/:id/mcp, Claude Code's `approve`
// tool over Streamable HTTP): an allow returns Claude Code's `allow` with no card, a deny its reason.
import { exports } from "cloudflare:workers";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { ORIGIN } from "../../helpers/session-harness";
import { deliverOutbox, Person } from "./inbox-fixtures";

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
});

async function mcpClient(person: Person, session: { sessionId: string; agentToken: string }) {
  const headers = await person.headers({ authorization: `Bearer ${session.agentToken}` });
  const transport = new StreamableHTTPClientTransport(
    new URL(`${ORIGIN}/api/sessions/${session.sessionId}/mcp`),
    {
      fetch: (input, init) => exports.default.fetch(input, init),
      requestInit: { headers },
    },
  );
  const client = new Client({ name: "claude-code-test", version: "1.0.0" });
  clients.push(client);
  await client.connect(transport);
  return client;
}

async function decide(client: Client, command: string, id: string): Promise<Record<string, unknown>> {
  const result = await client.callTool({
    name: "approve",
    arguments: { tool_name: "Bash", input: { command }, tool_use_id: id },
  });
  const block = (result.content as Array<{ type: string; text: string }>)[0];
  return JSON.parse(block?.text ?? "null");
}

describe("grants on the remote MCP endpoint", () => {
  // The first MCP connection of an isolate loads the SDK's server side: slow on a busy machine.
  it("allow the granted command at once and refuse the denied one with its reason, opening no card", {
    timeout: 60_000,
  }, async () => {
    const alice = new Person("alice.grants.mcp@example.com");
    const made = await alice.api("POST", "/api/grants", {
      body: { rule: "Bash(npm run test:*)", scope: "all" },
    });
    expect(made.status).toBe(201);
    await alice.api("POST", "/api/grants", {
      body: { effect: "deny", rule: "Bash(git push:*)", scope: "all", reason: "Pushes go through review" },
    });
    const created = await alice.api("POST", "/api/sessions", {
      body: { agent: { kind: "external", name: "Claude Code", key: "mcp-grants" } },
    });
    const session = (await created.json()) as { sessionId: string; agentToken: string };
    const client = await mcpClient(alice, session);
    expect(await decide(client, "npm run test -- --watch=false", "toolu_t")).toMatchObject({
      behavior: "allow",
    });
    const refused = await decide(client, "git push origin main", "toolu_p");
    expect(refused).toMatchObject({ behavior: "deny" });
    expect(String(refused.message)).toContain("Pushes go through review");
    await deliverOutbox(session);
    expect((await alice.inbox()).cards).toEqual([]);
  });
});
