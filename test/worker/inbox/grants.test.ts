// A person's grants: made over the API or from a card, applied before an agent's approval opens
// (an allow answers at once, a deny refuses, deny beats allow), and ended by expiry or revocation.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { InboxObject } from "../../../src/inbox/inbox-object";
import type { GrantView } from "../../../src/protocol/grants/grants";
import { runInDurableObject } from "../../helpers/run-in-object";
import { ORIGIN } from "../../helpers/session-harness";
import { type ExternalSession, passDeadlines } from "../external/external-fixtures";
import { deliverOutbox, inboxObject, Person } from "./inbox-fixtures";

type External = ExternalSession;
type Card = {
  interactionId: string;
  status: string;
  resolution: { outcome: string; by: string | null; response: { reason?: string } } | null;
};

async function external(person: Person, name = "Claude Code", key?: string): Promise<External> {
  const response = await person.api("POST", "/api/sessions", {
    body: { agent: { kind: "external", name, ...(key ? { key } : {}) } },
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return (await response.json()) as External;
}

async function mintKey(person: Person, label: string): Promise<{ key: string; keyId: string }> {
  const response = await person.api("POST", "/api/agent-keys", { body: { label } });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { key: string; keyId: string };
}

/** An external session a bridge creates with an agent key: "this agent" grants are bound to that key. */
async function keyed(agentKey: string, name: string, key: string): Promise<External> {
  const response = await bearer("POST", "/api/sessions", agentKey, {
    agent: { kind: "external", name, key },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as External;
}

/** The agent asks to run `command`; answers the card as the agent reads it back. */
async function ask(person: Person, session: External, command: string): Promise<Card> {
  const opened = await person.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
    token: session.agentToken,
    body: { kind: "approval", request: { toolName: "Bash", input: { command }, risk: "execute" } },
  });
  expect(opened.status, await opened.clone().text()).toBe(201);
  const { interactionId } = (await opened.json()) as { interactionId: string };
  const read = await person.api("GET", `/api/sessions/${session.sessionId}/interactions/${interactionId}`, {
    token: session.agentToken,
  });
  return (await read.json()) as Card;
}

async function grant(person: Person, body: Record<string, unknown>): Promise<GrantView> {
  const response = await person.api("POST", "/api/grants", { body });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as GrantView;
}

async function grants(person: Person): Promise<GrantView[]> {
  const response = await person.api("GET", "/api/grants");
  expect(response.status).toBe(200);
  return ((await response.json()) as { grants: GrantView[] }).grants;
}

function bearer(method: string, path: string, token: string, body?: unknown): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe("grants", () => {
  it("refuse a malformed rule with a 400 that names the problem, and keep nothing", async () => {
    const alice = new Person("alice.grants.bad@example.com");
    const response = await alice.api("POST", "/api/grants", {
      body: { effect: "allow", rule: "Bash(npm:* run)", scope: "all" },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      '":*" may only end the pattern',
    );
    const noExpiry = await alice.api("POST", "/api/grants", {
      body: { rule: "Bash", scope: "all", expiresInSeconds: 60 },
    });
    expect(noExpiry.status).toBe(400);
    expect(await grants(alice)).toEqual([]);
  });

  it("let an allow answer an agent's approval at once, with no card, and still ask for other commands", async () => {
    const alice = new Person("alice.grants.allow@example.com");
    const made = await grant(alice, { effect: "allow", rule: "Bash(npm run test:*)", scope: "all" });
    expect(made).toMatchObject({
      scope: "all",
      madeBy: "alice.grants.allow@example.com",
      madeFrom: "api",
      uses: 0,
    });
    const session = await external(alice);

    const test = await ask(alice, session, "npm run test -- --watch=false");
    expect(test.status).toBe("resolved");
    expect(test.resolution).toMatchObject({ outcome: "approved", by: `grant:${made.grantId}` });
    const build = await ask(alice, session, "npm run build");
    expect(build.status).toBe("pending");
    const chained = await ask(alice, session, "npm run test; rm -rf ~");
    expect(chained.status).toBe("pending");

    await deliverOutbox(session);
    expect((await alice.inbox()).cards.map((card) => card.interactionId).sort()).toEqual(
      [build.interactionId, chained.interactionId].sort(),
    );
    expect((await grants(alice))[0]).toMatchObject({ grantId: made.grantId, uses: 1, active: true });
    expect((await grants(alice))[0]?.lastUsedAt).toEqual(expect.any(Number));
  });

  it("let a deny refuse with its reason without asking, and beat an allow that also matches", async () => {
    const alice = new Person("alice.grants.deny@example.com");
    await grant(alice, { effect: "allow", rule: "Bash", scope: "all" });
    const deny = await grant(alice, {
      effect: "deny",
      rule: "Bash(git push:*)",
      scope: "all",
      reason: "Pushes go through review",
    });
    const session = await external(alice);
    const push = await ask(alice, session, "git status && git push --force");
    expect(push.resolution).toMatchObject({
      outcome: "denied",
      by: `grant:${deny.grantId}`,
      response: { reason: "Pushes go through review" },
    });
    await deliverOutbox(session);
    expect((await alice.inbox()).cards).toEqual([]);
  });

  it("stop applying once expired (the inbox's clock moved an hour on)", async () => {
    const alice = new Person("alice.grants.expiry@example.com");
    await grant(alice, { rule: "Bash(make:*)", scope: "all", expiresInSeconds: 3_600 });
    const session = await external(alice);
    expect((await ask(alice, session, "make all")).status).toBe("resolved");
    await runInDurableObject<InboxObject, void>(inboxObject(alice.email), (instance) => {
      instance.clock.advance(3_600_000);
    });
    expect((await ask(alice, session, "make all")).status).toBe("pending");
    expect(await grants(alice)).toEqual([expect.objectContaining({ active: false, uses: 1 })]);
  });

  it("never turn a deadline into an allow: a card already open times out as its policy says", async () => {
    const alice = new Person("alice.grants.deadline@example.com");
    const session = await external(alice);
    const card = await ask(alice, session, "terraform apply");
    expect(card.status).toBe("pending");
    await grant(alice, { rule: "Bash(terraform apply)", scope: "all" });
    await passDeadlines(session);
    const read = await alice.api(
      "GET",
      `/api/sessions/${session.sessionId}/interactions/${card.interactionId}`,
      {
        token: session.agentToken,
      },
    );
    expect(((await read.json()) as Card).resolution).toMatchObject({ outcome: "timed_out" });
  });

  it("stop at once in an open session when revoked", async () => {
    const alice = new Person("alice.grants.revoke@example.com");
    const made = await grant(alice, { rule: "Bash(ls:*)", scope: "all" });
    const session = await external(alice);
    expect((await ask(alice, session, "ls -la")).status).toBe("resolved");
    const revoked = await alice.api("DELETE", `/api/grants/${made.grantId}`);
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toMatchObject({ active: false, revokedAt: expect.any(Number) });
    expect((await ask(alice, session, "ls -la")).status).toBe("pending");
    expect((await alice.api("DELETE", "/api/grants/grant_nope")).status).toBe(404);
  });

  it("apply a session grant in its session only, and an agent grant to that agent's key only", async () => {
    const alice = new Person("alice.grants.scope@example.com");
    const laptop = await mintKey(alice, "Laptop");
    const one = await keyed(laptop.key, "Claude Code", "cc-1");
    const other = await keyed(laptop.key, "Claude Code", "cc-2");
    const codex = await keyed((await mintKey(alice, "Codex box")).key, "Codex", "codex-1");
    await grant(alice, { rule: "Bash(pwd)", scope: "session", sessionId: one.sessionId });
    await grant(alice, {
      rule: "Bash(whoami)",
      scope: "agent",
      agent: { name: "Claude Code", key: laptop.keyId },
    });
    expect((await ask(alice, one, "pwd")).status).toBe("resolved");
    expect((await ask(alice, other, "pwd")).status).toBe("pending");
    expect((await ask(alice, other, "whoami")).status).toBe("resolved");
    expect((await ask(alice, codex, "whoami")).status).toBe("pending");
    const elsewhere = await alice.api("POST", "/api/grants", {
      body: { rule: "Bash", scope: "session", sessionId: "f".repeat(32) },
    });
    expect(elsewhere.status).toBe(404);
  });

  it("are made from a card by its owner, for this agent, and then answer its next call", async () => {
    const alice = new Person("alice.grants.card@example.com");
    const laptop = await mintKey(alice, "Laptop");
    const session = await keyed(laptop.key, "Claude Code", "cc-card");
    const first = await ask(alice, session, "npm run test -- --watch=false");
    const answered = await alice.api(
      "POST",
      `/api/inbox/cards/${session.sessionId}/${first.interactionId}/respond`,
      {
        body: {
          response: {
            decision: "approve",
            grant: { rule: "Bash(npm run test:*)", scope: "agent", expiresInSeconds: 86_400 },
          },
        },
      },
    );
    expect(answered.status, await answered.clone().text()).toBe(200);
    const [made] = await grants(alice);
    expect(made).toMatchObject({
      rule: "Bash(npm run test:*)",
      scope: "agent",
      agent: { name: "Claude Code", key: laptop.keyId },
      fromInteraction: first.interactionId,
    });
    expect(made?.expiresAt).toEqual(expect.any(Number));
    expect((await ask(alice, session, "npm run test")).resolution).toMatchObject({
      by: `grant:${made?.grantId}`,
    });
  });

  it("from a card through an answer link cover one session at most", async () => {
    const alice = new Person("alice.grants.answerlink@example.com");
    const session = await external(alice);
    const minted = await alice.api("POST", `/api/sessions/${session.sessionId}/links`, {
      token: session.token,
      body: { role: "answer", label: "Pager" },
    });
    const { token } = (await minted.json()) as { token: string };
    const card = await ask(alice, session, "npm run lint");
    const wide = await alice.api("POST", `/api/sessions/${session.sessionId}/respond`, {
      token,
      body: {
        interactionId: card.interactionId,
        response: { decision: "approve", grant: { rule: "Bash(npm run lint)", scope: "agent" } },
      },
    });
    expect(wide.status).toBe(403);
    expect(await grants(alice)).toEqual([]);
    const narrow = await alice.api("POST", `/api/sessions/${session.sessionId}/respond`, {
      token,
      body: {
        interactionId: card.interactionId,
        response: { decision: "approve", grant: { rule: "Bash(npm run lint)", scope: "session" } },
      },
    });
    expect(narrow.status, await narrow.clone().text()).toBe(200);
    expect(await grants(alice)).toEqual([
      expect.objectContaining({
        scope: "session",
        sessionId: session.sessionId,
        madeBy: expect.stringContaining("Pager"),
      }),
    ]);
  });

  it("cannot be listed or made through a view inbox link, nor made wider than a session through an answer one", async () => {
    const alice = new Person("alice.grants.links@example.com");
    const session = await external(alice);
    const mint = async (role: string) =>
      ((await (await alice.api("POST", "/api/inbox/links", { body: { role } })).json()) as { token: string })
        .token;
    const view = await mint("view");
    expect((await bearer("GET", "/api/grants", view)).status).toBe(403);
    expect((await bearer("POST", "/api/grants", view, { rule: "Bash", scope: "all" })).status).toBe(403);
    const answer = await mint("answer");
    const wide = await bearer("POST", "/api/grants", answer, { rule: "Bash", scope: "all" });
    expect(wide.status).toBe(403);
    expect((await bearer("GET", "/api/grants", answer)).status).toBe(403);
    expect(await grants(alice)).toEqual([]);
    const narrow = await bearer("POST", "/api/grants", answer, {
      rule: "Bash(pwd)",
      scope: "session",
      sessionId: session.sessionId,
    });
    expect(narrow.status, await narrow.clone().text()).toBe(201);
    // A session's own links are not the person: they cannot reach the grants at all.
    expect((await bearer("GET", "/api/grants", session.agentToken)).status).toBe(401);
    expect((await bearer("GET", "/api/grants", session.token)).status).toBe(401);
  });
});

describe("grants through the inbox", () => {
  it("from an answer inbox link's card answer cover one session at most", async () => {
    const alice = new Person("alice.grants.inboxanswer@example.com");
    const session = await external(alice);
    const minted = await alice.api("POST", "/api/inbox/links", { body: { role: "answer", label: "Phone" } });
    const { token } = (await minted.json()) as { token: string };
    const card = await ask(alice, session, "npm run lint");
    const path = `/api/inbox/cards/${session.sessionId}/${card.interactionId}/respond`;
    const grantOf = (scope: string) => ({
      response: { decision: "approve", grant: { rule: "Bash(npm run lint)", scope } },
    });
    expect((await bearer("POST", path, token, grantOf("all"))).status).toBe(403);
    expect(await grants(alice)).toEqual([]);
    const narrow = await bearer("POST", path, token, grantOf("session"));
    expect(narrow.status, await narrow.clone().text()).toBe(200);
    expect(await grants(alice)).toEqual([
      expect.objectContaining({ scope: "session", madeBy: expect.stringContaining("Phone") }),
    ]);
  });

  it("made from chat last a day at most", async () => {
    const alice = new Person("alice.grants.chat@example.com");
    const kept = await inboxObject(alice.email).addGrant({
      effect: "allow",
      rule: "Bash(ls)",
      scope: "all",
      sessionId: null,
      agent: null,
      reason: null,
      madeBy: "alice (Slack)",
      madeFrom: "chat",
      fromInteraction: null,
      expiresInSeconds: null,
    });
    expect(kept?.expiresAt).toBe((kept?.createdAt ?? 0) + 86_400_000);
  });
});
