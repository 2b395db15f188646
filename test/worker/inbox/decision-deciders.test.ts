// Who decided, as the decision record names it: each way an answer enters sets its own decider
// (the page's socket, the terminal's, a share link, the inbox as the person or an inbox link, the
// HTTP API, the deadline, the agent's withdrawal), each answer with the person it counts as, and
// records written before deciders still read.
import { runDurableObjectAlarm } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { InboxObject } from "../../../src/inbox/inbox-object";
import type { MintedInboxLink } from "../../../src/protocol";
import type { MintedLink } from "../../../src/protocol/access/access";
import type { Decider } from "../../../src/protocol/cards/decider";
import type { DecisionPage } from "../../../src/protocol/inbox/decisions";
import type { OutboxBatch } from "../../../src/protocol/inbox/inbox";
import { runInDurableObject } from "../../helpers/run-in-object";
import { type CreatedSession, ORIGIN } from "../../helpers/session-harness";
import { advanceClock, stubOf } from "../../helpers/session-object-probe";
import { deliverOutbox, inboxObject, Person } from "./inbox-fixtures";

type External = CreatedSession & { agentToken: string };

async function external(person: Person): Promise<External> {
  const response = await person.api("POST", "/api/sessions", {
    body: { agent: { kind: "external", name: "Claude Code" } },
  });
  return (await response.json()) as External;
}

async function open(person: Person, session: External, extra: Record<string, unknown> = {}) {
  const opened = await person.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
    token: session.agentToken,
    body: { kind: "approval", request: { toolName: "Bash", input: { command: "ls" } }, ...extra },
  });
  expect(opened.status, await opened.clone().text()).toBe(201);
  return ((await opened.json()) as { interactionId: string }).interactionId;
}

/** The decider the person's decision record holds for one card, once the session delivered it. */
async function deciderOf(person: Person, session: External, interactionId: string): Promise<Decider> {
  await deliverOutbox(session);
  const response = await person.api("GET", `/api/decisions?session=${session.sessionId}`);
  const page = (await response.json()) as DecisionPage;
  const record = page.decisions.find((decision) => decision.interactionId === interactionId);
  if (!record) throw new Error(`no decision for ${interactionId}: ${JSON.stringify(page)}`);
  return record.decidedBy;
}

const approve = (interactionId: string) => ({
  type: "respond" as const,
  interactionId,
  response: { decision: "approve" },
});

describe("who decided, as the decision record names it", () => {
  it("names the person from the page's socket, and from the terminal's when it says it is one", async () => {
    const ana = new Person("ana.decider.sockets@example.com");
    const session = await external(ana);
    const first = await open(ana, session);
    const page = await ana.connect(session);
    expect(await page.request(approve(first))).toMatchObject({ ok: true });
    expect(await deciderOf(ana, session, first)).toEqual({
      kind: "person",
      label: ana.email,
      id: ana.email,
      device: "page",
      personId: ana.email,
    });
    const second = await open(ana, session);
    const terminal = await ana.connect(session, { client: "terminal", device: "cli-laptop" });
    expect(await terminal.request(approve(second))).toMatchObject({ ok: true });
    expect(await deciderOf(ana, session, second)).toMatchObject({ kind: "person", device: "terminal" });
    // A device id that looks like the terminal's is only a name: the page says nothing else.
    const third = await open(ana, session);
    const lookalike = await ana.connect(session, { device: "cli-not-really" });
    expect(await lookalike.request(approve(third))).toMatchObject({ ok: true });
    expect(await deciderOf(ana, session, third)).toMatchObject({ kind: "person", device: "page" });
    page.close();
    terminal.close();
    lookalike.close();
  });

  it("names a share link by its id and label, and the HTTP API as the device of a call over HTTP", async () => {
    const ana = new Person("ana.decider.links@example.com");
    const session = await external(ana);
    const minted = await ana.api("POST", `/api/sessions/${session.sessionId}/links`, {
      token: session.token,
      body: { role: "answer", label: "Bo's phone" },
    });
    const link = (await minted.json()) as MintedLink;
    const first = await open(ana, session);
    const phone = await ana.connect({ ...session, token: link.token });
    expect(await phone.request(approve(first))).toMatchObject({ ok: true });
    expect(await deciderOf(ana, session, first)).toEqual({
      kind: "link",
      label: `Bo's phone (share link ${link.linkId.slice(0, 8)})`,
      id: link.linkId,
      device: "page",
      personId: ana.email,
    });
    const second = await open(ana, session);
    const overHttp = await ana.api("POST", `/api/sessions/${session.sessionId}/respond`, {
      token: link.token,
      body: { interactionId: second, response: { decision: "deny" } },
    });
    expect(overHttp.status).toBe(200);
    expect(await deciderOf(ana, session, second)).toMatchObject({
      kind: "link",
      id: link.linkId,
      device: "api",
    });
    phone.close();
  });

  it("names the person, or the inbox link, that answered from the inbox", async () => {
    const ana = new Person("ana.decider.inbox@example.com");
    const session = await external(ana);
    const first = await open(ana, session);
    const respond = (id: string) => `/api/inbox/cards/${session.sessionId}/${id}/respond`;
    expect(
      (await ana.api("POST", respond(first), { body: { response: { decision: "approve" } } })).status,
    ).toBe(200);
    expect(await deciderOf(ana, session, first)).toEqual({
      kind: "person",
      label: ana.email,
      id: ana.email,
      device: "page",
      personId: ana.email,
    });
    const minted = await ana.api("POST", "/api/inbox/links", { body: { role: "answer", label: "Tablet" } });
    const link = (await minted.json()) as MintedInboxLink;
    const second = await open(ana, session);
    const viaLink = await exports.default.fetch(`${ORIGIN}${respond(second)}`, {
      method: "POST",
      headers: { authorization: `Bearer ${link.token}`, "content-type": "application/json" },
      body: JSON.stringify({ response: { decision: "approve" } }),
    });
    expect(viaLink.status, await viaLink.clone().text()).toBe(200);
    expect(await deciderOf(ana, session, second)).toMatchObject({
      kind: "link",
      id: link.linkId,
      device: "page",
      personId: ana.email,
    });
  });

  it("names the deadline for a card nobody answered, and the agent for a card it withdrew", async () => {
    const ana = new Person("ana.decider.nobody@example.com");
    const session = await external(ana);
    const lapsed = await open(ana, session, { timeoutMs: 1_000 });
    await advanceClock(session, { by: 2_000 });
    await runDurableObjectAlarm(stubOf(session));
    expect(await deciderOf(ana, session, lapsed)).toEqual({
      kind: "deadline",
      label: null,
      id: null,
      device: null,
    });
    const withdrawn = await open(ana, session);
    const gone = await ana.api("DELETE", `/api/sessions/${session.sessionId}/interactions/${withdrawn}`, {
      token: session.agentToken,
    });
    expect(gone.status).toBe(200);
    expect(await deciderOf(ana, session, withdrawn)).toEqual({
      kind: "withdrawal",
      label: "Claude Code",
      id: null,
      device: "bridge",
    });
  });

  it("still reads records and deliveries written before deciders, as their name and device said", async () => {
    const ana = new Person("ana.decider.legacy@example.com");
    const session = await external(ana);
    await deliverOutbox(session);
    // A row as the session stored it: JSON text, which the inbox parses where it receives it.
    const legacy = (interactionId: string, decidedBy: unknown) =>
      JSON.stringify({
        type: "card_resolved",
        interactionId,
        outcome: "approved",
        resolvedBy: "phone",
        answeredBy: null,
        resolvedAt: Date.now(),
        decision: {
          agent: "Claude Code",
          kind: "approval",
          toolName: "Bash",
          inputDigest: "0".repeat(64),
          decidedBy,
        },
      });
    // A delivery queued by a session before the upgrade: the old shape of who decided.
    const batch = {
      sessionId: session.sessionId,
      rows: [
        {
          seq: 1_000_001,
          entry: legacy("ext_old_person", { type: "person", name: "ana", device: "terminal" }),
        },
        {
          seq: 1_000_002,
          entry: legacy("ext_old_link", { type: "person", name: "Bo (share link 1a2b3c4d)", device: "page" }),
        },
        {
          seq: 1_000_003,
          entry: legacy("ext_old_chat", { type: "person", name: "Ana · Telegram", device: "chat" }),
        },
      ],
    } as OutboxBatch;
    await inboxObject(ana.email).apply(batch);
    // A row stored before the upgrade, straight in the table.
    await runInDurableObject<InboxObject, void>(inboxObject(ana.email), (_, state) => {
      state.storage.sql.exec(
        `INSERT INTO decisions (at, session_id, interaction_id, agent, kind, tool_name, input_digest, outcome, decided_by, grant_id)
         VALUES (?, ?, 'ext_old_grant', 'Claude Code', 'approval', 'Bash', ?, 'approved', ?, 'grant_old')`,
        Date.now(),
        session.sessionId,
        "0".repeat(64),
        JSON.stringify({ type: "grant", grantId: "grant_old" }),
      );
    });
    const page = (await (
      await ana.api("GET", `/api/decisions?session=${session.sessionId}`)
    ).json()) as DecisionPage;
    const by = Object.fromEntries(page.decisions.map((d) => [d.interactionId, d.decidedBy]));
    expect(by).toEqual({
      ext_old_person: { kind: "person", label: "ana", id: "ana", device: "terminal" },
      ext_old_link: { kind: "link", label: "Bo (share link 1a2b3c4d)", id: null, device: "page" },
      ext_old_chat: { kind: "chat", label: "Ana · Telegram", id: null, device: "chat" },
      ext_old_grant: { kind: "grant", label: null, id: "grant_old", device: null },
    });
    const csv = await (await ana.api("GET", "/api/decisions/export?format=csv")).text();
    expect(csv).toContain(",grant_old,grant,grant_old");
  });
});
