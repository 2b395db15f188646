// The decision record: one row per resolution of a person's card, written through the session's
// outbox exactly once across restarts, kept after the session is deleted, paged and exported.
import { evictDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { assessCall } from "../../../src/assessment/assess-call";
import { grantOfferFor } from "../../../src/grants/grant-offer";
import { inputDigest } from "../../../src/grants/input-digest";
import { loadShellReader } from "../../../src/grants/shell-reader";
import type { InboxObject } from "../../../src/inbox/inbox-object";
import { DECISION_CSV_COLUMNS, type DecisionPage } from "../../../src/protocol/inbox/decisions";
import type { OutboxBatch } from "../../../src/protocol/inbox/inbox";
import { runInDurableObject } from "../../helpers/run-in-object";
import { stubOf } from "../../helpers/session-object-probe";
import { deliverOutbox, inboxObject, Person } from "./inbox-fixtures";

type External = { sessionId: string; agentToken: string; token: string };

async function external(person: Person): Promise<External> {
  const response = await person.api("POST", "/api/sessions", {
    body: { agent: { kind: "external", name: "Claude Code" } },
  });
  return (await response.json()) as External;
}

async function open(person: Person, session: External, command: string): Promise<string> {
  const opened = await person.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
    token: session.agentToken,
    body: { kind: "approval", request: { toolName: "Bash", input: { command }, risk: "execute" } },
  });
  expect(opened.status).toBe(201);
  return ((await opened.json()) as { interactionId: string }).interactionId;
}

async function decisions(person: Person, query = ""): Promise<DecisionPage> {
  const response = await person.api("GET", `/api/decisions${query}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as DecisionPage;
}

async function decisionRows(email: string): Promise<number> {
  return runInDurableObject<InboxObject, number>(inboxObject(email), (_, state) => {
    return state.storage.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM decisions`).toArray()[0]?.n ?? 0;
  });
}

// The expected digest holds Parley's assessment, which reads the command with the shell parser.
beforeAll(() => loadShellReader());

describe("the decision record", () => {
  it("holds one record per resolution, naming who decided, across restarts and a repeated delivery", async () => {
    const alice = new Person("alice.decisions.once@example.com");
    const made = await alice.api("POST", "/api/grants", {
      body: { rule: "Bash(npm run test:*)", scope: "all" },
    });
    const { grantId } = (await made.json()) as { grantId: string };
    const session = await external(alice);
    const granted = await open(alice, session, "npm run test");
    const asked = await open(alice, session, "npm run build");
    const answered = await alice.api("POST", `/api/sessions/${session.sessionId}/respond`, {
      token: session.token,
      body: { interactionId: asked, response: { decision: "deny", reason: "Not now" } },
    });
    expect(answered.status).toBe(200);
    // Both objects restart before and after the delivery; the rows are delivered once in effect.
    const rows = await runInDurableObject(stubOf(session), (_, state) =>
      state.storage.sql
        .exec<{ seq: number; entry: string }>(
          `SELECT id AS seq, entry FROM outbox WHERE status = 'pending' ORDER BY id`,
        )
        .toArray(),
    );
    await evictDurableObject(stubOf(session));
    await evictDurableObject(inboxObject(alice.email));
    await deliverOutbox(session);
    await evictDurableObject(inboxObject(alice.email));
    const batch = {
      sessionId: session.sessionId,
      // Each row as the session stored it: the inbox parses it where it receives it.
      rows: rows.map((row) => ({ seq: row.seq, entry: row.entry })),
    } as OutboxBatch;
    await inboxObject(alice.email).apply(batch);
    expect(await decisionRows(alice.email)).toBe(2);

    const page = await decisions(alice, `?session=${session.sessionId}`);
    expect(page.next).toBeNull();
    expect(page.decisions).toEqual([
      expect.objectContaining({
        interactionId: granted,
        agent: "Claude Code",
        kind: "approval",
        toolName: "Bash",
        outcome: "approved",
        decidedBy: { kind: "grant", label: "Bash(npm run test:*)", id: grantId, device: null },
        // The card's request as stored: an external agent's risk is kept as its claim, beside
        // Parley's own assessment of the call and the grant it may offer.
        inputDigest: inputDigest({
          toolName: "Bash",
          input: { command: "npm run test" },
          claim: { risk: "execute" },
          assessment: assessCall({ toolName: "Bash", input: { command: "npm run test" }, cwd: null }),
          grantOffer: grantOfferFor({ toolName: "Bash", input: { command: "npm run test" }, cwd: null }),
        }),
        sessionExists: true,
      }),
      expect.objectContaining({
        interactionId: asked,
        outcome: "denied",
        decidedBy: {
          kind: "person",
          label: "alice.decisions.once@example.com",
          id: "alice.decisions.once@example.com",
          device: "api",
          personId: "alice.decisions.once@example.com",
        },
      }),
    ]);
  });

  it("pages by cursor, filters by tool, and refuses a bad query", async () => {
    const alice = new Person("alice.decisions.page@example.com");
    await alice.api("POST", "/api/grants", { body: { rule: "Bash", scope: "all" } });
    const session = await external(alice);
    for (const command of ["ls", "pwd", "whoami"]) await open(alice, session, command);
    await deliverOutbox(session);
    const first = await decisions(alice, "?limit=2");
    expect(first.decisions).toHaveLength(2);
    expect(first.next).toEqual(expect.any(Number));
    const rest = await decisions(alice, `?limit=2&after=${first.next}`);
    expect(rest.decisions).toHaveLength(1);
    expect(rest.next).toBeNull();
    expect((await decisions(alice, "?tool=Edit")).decisions).toEqual([]);
    expect((await decisions(alice, "?tool=Bash")).decisions).toHaveLength(3);
    expect((await alice.api("GET", "/api/decisions?limit=0")).status).toBe(400);
    expect((await alice.api("GET", "/api/decisions?colour=red")).status).toBe(400);
  });

  it("survives deleting the session, which it then says is gone", async () => {
    const alice = new Person("alice.decisions.deleted@example.com");
    await alice.api("POST", "/api/grants", { body: { rule: "Bash(ls)", scope: "all" } });
    const session = await external(alice);
    await open(alice, session, "ls");
    await deliverOutbox(session);
    const deleted = await alice.api("DELETE", `/api/sessions/${session.sessionId}`, { token: session.token });
    expect(deleted.status).toBeLessThan(300);
    const after = await decisions(alice);
    expect(after.decisions).toEqual([
      expect.objectContaining({ sessionId: session.sessionId, outcome: "approved", sessionExists: false }),
    ]);
  });

  it("exports as CSV that opens with its columns, and as JSON", async () => {
    const alice = new Person("alice.decisions.export@example.com");
    await alice.api("POST", "/api/grants", { body: { rule: "Bash(ls)", scope: "all" } });
    const session = await external(alice);
    await open(alice, session, "ls");
    await deliverOutbox(session);
    const csv = await alice.api("GET", "/api/decisions/export?format=csv");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = (await csv.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe(DECISION_CSV_COLUMNS.join(","));
    expect(lines[0]).toBe(
      "decision_id,at,session_id,agent,kind,tool,input_digest,outcome,decided_by,device,grant_id,decider_kind,decider_id,approvals,decider_person",
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,${session.sessionId},Claude Code,approval,Bash,`);
    const json = await alice.api("GET", "/api/decisions/export?format=json");
    expect(((await json.json()) as { decisions: unknown[] }).decisions).toHaveLength(1);
    expect((await alice.api("GET", "/api/decisions/export?format=xml")).status).toBe(400);
  });
});
