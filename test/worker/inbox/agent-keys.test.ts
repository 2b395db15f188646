// Agent keys: the person mints a key for a bridge; the key creates or finds that person's external
// sessions and gets back an agent link, and every other route refuses it. Revoking the key ends
// every agent link it was given.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AgentKeyView, MintedAgentKey, MintedInboxLink } from "../../../src/protocol";
import { runInDurableObject } from "../../helpers/run-in-object";
import { ORIGIN } from "../../helpers/session-harness";
import { ask, deliverOutbox, inboxObject, Person } from "./inbox-fixtures";

async function mintKey(person: Person, label = "Laptop"): Promise<MintedAgentKey> {
  const response = await person.api("POST", "/api/agent-keys", { body: { label } });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as MintedAgentKey;
}

/** A request carrying only `token` (a bridge, with no Access in front of it). */
function bare(method: string, path: string, token: string, body?: unknown): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The agent link at work: Access lets the bridge's machine through, the link does the rest. */
async function asAgent(person: Person, method: string, path: string, token: string, body?: unknown) {
  return person.api(method, path, { token, ...(body === undefined ? {} : { body }) });
}

function createWithKey(key: string, agent: Record<string, unknown> = {}): Promise<Response> {
  return bare("POST", "/api/sessions", key, { agent: { kind: "external", name: "Claude Code", ...agent } });
}

async function listKeys(person: Person): Promise<AgentKeyView[]> {
  const response = await person.api("GET", "/api/agent-keys");
  expect(response.status).toBe(200);
  return ((await response.json()) as { keys: AgentKeyView[] }).keys;
}

describe("agent keys", () => {
  it("are minted by the person, shown once, and listed without the key", async () => {
    const alice = new Person("alice.keys@example.com");
    const minted = await mintKey(alice, "Work laptop");
    expect(minted).toMatchObject({ label: "Work laptop", expiresAt: null });
    expect(minted.key.startsWith("pak_")).toBe(true);
    const listed = await alice.api("GET", "/api/agent-keys");
    const text = await listed.text();
    expect(JSON.parse(text)).toEqual({
      keys: [
        {
          keyId: minted.keyId,
          label: "Work laptop",
          createdAt: minted.createdAt,
          expiresAt: null,
          revokedAt: null,
        },
      ],
    });
    expect(text).not.toContain(minted.key.split(".")[2]);
    // The Inbox object keeps a hash of the secret, never the key.
    const stored = await runInDurableObject(inboxObject(alice.email), (_, state) =>
      JSON.stringify(state.storage.sql.exec(`SELECT * FROM agent_keys`).toArray()),
    );
    expect(stored).not.toContain(minted.key.split(".")[2]);
  });

  it("refuse bad input precisely and store nothing", async () => {
    const bob = new Person("bob.badkeys@example.com");
    const cases: Array<[unknown, string]> = [
      [{}, "label"],
      [{ label: 42 }, "label"],
      [{ label: "   " }, "label"],
      [{ label: "x".repeat(81) }, "label"],
      [{ label: "Laptop", expiresInSeconds: -5 }, "expiresInSeconds"],
      [{ label: "Laptop", expiresInSeconds: "soon" }, "expiresInSeconds"],
      [{ label: "Laptop", role: "owner" }, "role"],
    ];
    for (const [body, field] of cases) {
      const response = await bob.api("POST", "/api/agent-keys", { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(field);
    }
    expect(await listKeys(bob)).toEqual([]);
    const badId = await bob.api("DELETE", "/api/agent-keys/not-a-key-id");
    expect(badId.status).toBe(400);
    const unknown = await bob.api("DELETE", `/api/agent-keys/${"0".repeat(32)}`);
    expect(unknown.status).toBe(404);
  });

  it("create the person's keyed external session without any owner credential, and find it again", async () => {
    const carol = new Person("carol.keyed@example.com");
    const { key } = await mintKey(carol);
    const first = await createWithKey(key, { key: "claude-session-1" });
    expect(first.status, await first.clone().text()).toBe(201);
    const created = (await first.json()) as Record<string, unknown>;
    expect(Object.keys(created).sort()).toEqual(["agentLink", "agentToken", "created", "sessionId"]);
    const again = await createWithKey(key, { key: "claude-session-1" });
    expect(again.status).toBe(200);
    const found = (await again.json()) as Record<string, unknown>;
    expect(found.sessionId).toBe(created.sessionId);
    expect(found.agentToken).toBe(created.agentToken);
    expect(found).not.toHaveProperty("token");
    expect(found).not.toHaveProperty("shareUrl");
    expect(found).not.toHaveProperty("websocketUrl");

    // The agent link opens cards; the session is the person's, and their inbox shows it.
    const opened = await asAgent(
      carol,
      "POST",
      `/api/sessions/${created.sessionId}/interactions`,
      created.agentToken as string,
      {
        kind: "approval",
        request: { toolName: "Bash", input: { command: "ls" }, risk: "execute" },
      },
    );
    expect(opened.status).toBe(201);
    await deliverOutbox({ sessionId: created.sessionId as string });
    const view = await carol.inbox();
    expect(view.cards.map((card) => card.sessionId)).toEqual([created.sessionId]);
  });

  it("are refused by every route but creating an external session", async () => {
    const dave = new Person("dave.refused@example.com");
    const { key } = await mintKey(dave);
    const own = await dave.createSession({ script: [ask("toolu_key_refused")] });
    const laptop = await dave.connect(own);
    await laptop.request({ type: "send_message", text: "Go" });
    await laptop.waitForEvent("question_prompt");
    await deliverOutbox(own);
    const keyed = (await (await createWithKey(key, { key: "refusals" })).json()) as { sessionId: string };
    const refusals: Array<[string, string, unknown?]> = [
      ["GET", "/api/inbox"],
      ["POST", `/api/inbox/cards/${own.sessionId}/toolu_key_refused/respond`, { response: { answers: {} } }],
      ["POST", `/api/inbox/sessions/${own.sessionId}/open`, {}],
      ["POST", "/api/inbox/links", { role: "answer" }],
      ["POST", "/api/inbox/ws-ticket", {}],
      ["GET", "/api/agent-keys"],
      ["POST", "/api/agent-keys", { label: "Another" }],
      ["GET", `/api/sessions/${own.sessionId}`],
      ["GET", `/api/sessions/${keyed.sessionId}`],
      ["POST", `/api/sessions/${keyed.sessionId}/links`, { role: "answer" }],
      ["POST", `/api/sessions/${keyed.sessionId}/owner-token`, {}],
      [
        "POST",
        `/api/sessions/${own.sessionId}/respond`,
        { interactionId: "toolu_key_refused", response: {} },
      ],
      ["DELETE", `/api/sessions/${keyed.sessionId}`],
      ["POST", "/api/sessions", {}],
      ["POST", "/api/sessions", { script: [] }],
      ["GET", "/api/notify"],
      // The person's grants and decision record are theirs alone: a key neither lists nor makes one.
      ["GET", "/api/grants"],
      ["POST", "/api/grants", { effect: "allow", rule: "Bash(rm -rf:*)", scope: "all" }],
      ["DELETE", "/api/grants/00000000000000000000000000000000"],
      ["GET", "/api/decisions"],
      ["GET", "/api/decisions/export?format=csv"],
      ["GET", "/api/channels"],
      ["POST", "/api/channels/link-codes", { platform: "telegram" }],
      ["GET", "/api/channels/links"],
      ["DELETE", "/api/channels/links/link-not-there"],
      ["POST", "/api/channels/telegram", { update_id: 1 }],
      ["POST", "/api/channels/discord", { type: 1 }],
    ];
    for (const [method, path, body] of refusals) {
      const response = await bare(method, path, key, body);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("forbidden");
    }
    // In a URL too: a WebSocket or stream that names the key as its token.
    const socket = await exports.default.fetch(`${ORIGIN}/api/sessions/${keyed.sessionId}/ws?token=${key}`, {
      headers: { upgrade: "websocket" },
    });
    expect(socket.status).toBe(403);
    const stream = await exports.default.fetch(`${ORIGIN}/api/inbox/stream?token=${key}`);
    expect(stream.status).toBe(403);
    // Nothing was answered, and no grant was made.
    expect((await dave.inbox()).cards.map((card) => card.interactionId)).toEqual(["toolu_key_refused"]);
    const grants = await dave.api("GET", "/api/grants");
    expect(((await grants.json()) as { grants: unknown[] }).grants).toEqual([]);
    laptop.close();
  });

  it("may not be minted, listed or revoked through an inbox link of any role", async () => {
    const erin = new Person("erin.linkkeys@example.com");
    const { keyId } = await mintKey(erin);
    for (const role of ["answer", "view"]) {
      const response = await erin.api("POST", "/api/inbox/links", { body: { role } });
      const link = (await response.json()) as MintedInboxLink;
      // An inbox link opens the inbox only; here it is no credential at all.
      expect((await bare("POST", "/api/agent-keys", link.token, { label: "Sneaky" })).status).toBe(401);
      expect((await bare("GET", "/api/agent-keys", link.token)).status).toBe(401);
      expect((await bare("DELETE", `/api/agent-keys/${keyId}`, link.token)).status).toBe(401);
    }
    expect((await listKeys(erin)).map((key) => key.revokedAt)).toEqual([null]);
  });

  it("revoked, end every agent link they were given: sockets close and the links are refused", async () => {
    const frank = new Person("frank.revoke@example.com");
    const { key, keyId } = await mintKey(frank);
    const other = await mintKey(frank, "Desktop");
    const made = (await (await createWithKey(key, { key: "to-revoke" })).json()) as {
      sessionId: string;
      agentToken: string;
    };
    const kept = (await (await createWithKey(other.key, { key: "kept" })).json()) as {
      sessionId: string;
      agentToken: string;
    };
    const agentSocket = await frank.connect({
      ...made,
      token: made.agentToken,
      shareUrl: "",
      websocketUrl: "",
    });
    const keptSocket = await frank.connect({
      ...kept,
      token: kept.agentToken,
      shareUrl: "",
      websocketUrl: "",
    });

    const revoked = await frank.api("DELETE", `/api/agent-keys/${keyId}`);
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as AgentKeyView).revokedAt).not.toBeNull();
    await agentSocket.until(() => agentSocket.closed, "the agent link's socket to close");
    expect(agentSocket.closeCode).toBe(4001);
    expect(keptSocket.closed).toBe(false);

    const read = await asAgent(frank, "GET", `/api/sessions/${made.sessionId}`, made.agentToken);
    expect(read.status).toBe(401);
    expect((await createWithKey(key, { key: "to-revoke" })).status).toBe(403);
    expect((await asAgent(frank, "GET", `/api/sessions/${kept.sessionId}`, kept.agentToken)).status).toBe(
      200,
    );
    keptSocket.close();
  });

  it("that expired are refused", async () => {
    const gina = new Person("gina.expiry@example.com");
    const response = await gina.api("POST", "/api/agent-keys", {
      body: { label: "Short", expiresInSeconds: 60 },
    });
    const minted = (await response.json()) as MintedAgentKey;
    expect(minted.expiresAt).toBeGreaterThan(Date.now());
    expect((await createWithKey(minted.key)).status).toBe(201);
    await runInDurableObject(inboxObject(gina.email), (_, state) => {
      state.storage.sql.exec(`UPDATE agent_keys SET expires_at = ?`, Date.now() - 1);
    });
    const refused = await createWithKey(minted.key);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("expired");
  });

  it("that are forged or belong to another server are refused before any inbox is reached", async () => {
    const hank = new Person("hank.forged@example.com");
    const { key } = await mintKey(hank);
    const [prefix, keyId, secret] = key.split(".") as [string, string, string];
    const flipped = `${prefix}.${keyId}.${secret.startsWith("A") ? "B" : "A"}${secret.slice(1)}`;
    const otherPerson = `pak_${btoa("mallory@example.com").replace(/=+$/, "")}.${keyId}.${secret}`;
    for (const forged of [flipped, otherPerson, "pak_garbage"]) {
      expect((await createWithKey(forged)).status, forged).toBe(403);
    }
  });
});
