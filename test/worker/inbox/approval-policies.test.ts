// A second person for what matters: a call APPROVAL_POLICIES covers (here `Bash(git push:*)`, a
// production MCP server, one deploy host) waits for approvals from two distinct people (Access
// identities). The same person twice counts once and is told so, one denial denies, an allow grant
// is no second person, a deadline still never allows, and every device sees "1 of 2 approvals".
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { InboxView } from "../../../src/protocol";
import type { MintedLink } from "../../../src/protocol/access/access";
import type { ExternalInteraction } from "../../../src/protocol/external/external";
import type { DecisionPage } from "../../../src/protocol/inbox/decisions";
import { type CreatedSession, textReply, toolReply } from "../../helpers/session-harness";
import { advanceClock, stubOf } from "../../helpers/session-object-probe";
import { deliverOutbox, Person } from "./inbox-fixtures";

type External = CreatedSession & { agentToken: string };

async function external(person: Person): Promise<External> {
  const response = await person.api("POST", "/api/sessions", {
    body: { agent: { kind: "external", name: "Claude Code" } },
  });
  return (await response.json()) as External;
}

async function push(person: Person, session: External, command = "git push origin main", timeoutMs?: number) {
  const opened = await person.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
    token: session.agentToken,
    body: {
      kind: "approval",
      request: { toolName: "Bash", input: { command } },
      ...(timeoutMs ? { timeoutMs } : {}),
    },
  });
  expect(opened.status, await opened.clone().text()).toBe(201);
  return (await opened.json()) as { interactionId: string; status: string };
}

async function read(person: Person, session: External, interactionId: string): Promise<ExternalInteraction> {
  const response = await person.api(
    "GET",
    `/api/sessions/${session.sessionId}/interactions/${interactionId}`,
    {
      token: session.agentToken,
    },
  );
  return (await response.json()) as ExternalInteraction;
}

function respond(person: Person, session: External, token: string, interactionId: string, decision: string) {
  return person.api("POST", `/api/sessions/${session.sessionId}/respond`, {
    token,
    body: { interactionId, response: { decision } },
  });
}

async function answerLink(person: Person, session: External, label: string): Promise<MintedLink> {
  const minted = await person.api("POST", `/api/sessions/${session.sessionId}/links`, {
    token: session.token,
    body: { role: "answer", label },
  });
  expect(minted.status).toBe(201);
  return (await minted.json()) as MintedLink;
}

describe("a rule that needs a second person", () => {
  it("counts the same person once however they answer, tells them so, and shows 1 of 2 on another device", async () => {
    const ana = new Person("ana.two.same@example.com");
    const session = await external(ana);
    const laptop = await ana.connect(session);
    const card = await push(ana, session);
    const prompt = await laptop.waitForEvent("approval_required");
    expect(prompt.data.approvals).toEqual({ needed: 2, given: 0, by: [] });

    const first = await respond(ana, session, session.token, card.interactionId, "approve");
    expect(first.status).toBe(200);
    expect(((await first.json()) as { result: { approvals: unknown } }).result.approvals).toEqual({
      needed: 2,
      given: 1,
      by: [ana.email],
    });
    // Another device of the session sees the count, and so does its hello after a reconnect.
    const counted = await laptop.waitForEvent("approval_counted");
    expect(counted.data).toMatchObject({
      interactionId: card.interactionId,
      approvals: { needed: 2, given: 1 },
      decider: { kind: "person", id: ana.email, device: "api" },
    });
    const phone = await ana.connect(session);
    expect(phone.hello?.snapshot.pending[0]?.approvals).toEqual({ needed: 2, given: 1, by: [ana.email] });

    // The same person again — over the socket, from the inbox — is still one person.
    const again = await laptop.request({
      type: "respond",
      interactionId: card.interactionId,
      response: { decision: "approve" },
    });
    expect(again).toMatchObject({ ok: false, error: { code: "already_approved" } });
    expect(JSON.stringify(again)).toContain("1 of 2 approvals");
    const fromInbox = await ana.api(
      "POST",
      `/api/inbox/cards/${session.sessionId}/${card.interactionId}/respond`,
      {
        body: { response: { decision: "approve" } },
      },
    );
    expect(fromInbox.status).toBe(409);
    expect((await read(ana, session, card.interactionId)).status).toBe("pending");

    // The inbox's copy of the card carries the count too.
    await deliverOutbox(session);
    const inbox = (await (await ana.api("GET", "/api/inbox")).json()) as InboxView;
    expect(inbox.cards.find((c) => c.interactionId === card.interactionId)?.approvals).toEqual({
      needed: 2,
      given: 1,
      by: [ana.email],
    });
    laptop.close();
    phone.close();
  });

  it("runs once a second signed-in person approved through an answer link, and records both approvals", async () => {
    const ana = new Person("ana.two.both@example.com");
    const bo = new Person("bo.two.both@example.com");
    const session = await external(ana);
    const link = await answerLink(ana, session, "Bo");
    const card = await push(ana, session);
    expect((await respond(ana, session, session.token, card.interactionId, "approve")).status).toBe(200);
    expect((await read(ana, session, card.interactionId)).status).toBe("pending");
    const second = await respond(bo, session, link.token, card.interactionId, "approve");
    expect(second.status, await second.clone().text()).toBe(200);
    const done = await read(ana, session, card.interactionId);
    expect(done).toMatchObject({ status: "resolved", resolution: { outcome: "approved" } });

    await deliverOutbox(session);
    const page = (await (
      await ana.api("GET", `/api/decisions?session=${session.sessionId}`)
    ).json()) as DecisionPage;
    expect(page.decisions).toEqual([
      expect.objectContaining({
        outcome: "approved",
        decidedBy: expect.objectContaining({ kind: "link", id: link.linkId, personId: bo.email }),
        approvals: [
          expect.objectContaining({ kind: "person", id: ana.email, personId: ana.email }),
          expect.objectContaining({ kind: "link", id: link.linkId, personId: bo.email }),
        ],
      }),
    ]);
    const csv = await (await ana.api("GET", "/api/decisions/export?format=csv")).text();
    expect(csv).toContain(`${ana.email}; Bo (share link ${link.linkId.slice(0, 8)})`);
  });

  it("counts two answer links of one person as one approver, and two people through one link as two", async () => {
    const ana = new Person("ana.two.links@example.com");
    const bo = new Person("bo.two.links@example.com");
    const cy = new Person("cy.two.links@example.com");
    const session = await external(ana);
    const first = await answerLink(ana, session, "Bo");
    const other = await answerLink(ana, session, "Cy");
    const card = await push(ana, session);
    expect((await respond(bo, session, first.token, card.interactionId, "approve")).status).toBe(200);
    const again = await respond(bo, session, other.token, card.interactionId, "approve");
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("You already approved this call");
    expect((await read(ana, session, card.interactionId)).status).toBe("pending");
    expect((await respond(cy, session, first.token, card.interactionId, "approve")).status).toBe(200);
    expect((await read(ana, session, card.interactionId)).resolution?.outcome).toBe("approved");
  });

  it("refuses an approval with edited input, counting nothing: every approver approves the same call", async () => {
    const ana = new Person("ana.two.edit@example.com");
    const session = await external(ana);
    const card = await push(ana, session);
    const edited = await ana.api("POST", `/api/sessions/${session.sessionId}/respond`, {
      token: session.token,
      body: {
        interactionId: card.interactionId,
        response: { decision: "approve", updatedInput: { command: "git push --force" } },
      },
    });
    expect(edited.status).toBe(400);
    expect(await edited.text()).toContain("approve it without edits");
    // Nothing was counted: the person's plain approval is still their first.
    const plain = await respond(ana, session, session.token, card.interactionId, "approve");
    expect(
      ((await plain.json()) as { result: { approvals: { given: number } } }).result.approvals.given,
    ).toBe(1);
  });

  it("is denied by one denial, after an approval", async () => {
    const ana = new Person("ana.two.deny@example.com");
    const session = await external(ana);
    const link = await answerLink(ana, session, "Bo");
    const card = await push(ana, session);
    expect((await respond(ana, session, session.token, card.interactionId, "approve")).status).toBe(200);
    expect((await respond(ana, session, link.token, card.interactionId, "deny")).status).toBe(200);
    expect((await read(ana, session, card.interactionId)).resolution?.outcome).toBe("denied");
  });

  it("is not approved by an allow grant, which counts as no one, while a deny grant still refuses", async () => {
    const ana = new Person("ana.two.grant@example.com");
    const made = await ana.api("POST", "/api/grants", { body: { rule: "Bash(git push:*)", scope: "all" } });
    expect(made.status).toBe(201);
    const session = await external(ana);
    const card = await push(ana, session);
    expect(card.status).toBe("pending");
    // Other calls the grant covers that no rule asks more of are still granted at once.
    const covered = await ana.api("POST", "/api/grants", {
      body: { rule: "Bash(git status)", scope: "all" },
    });
    expect(covered.status).toBe(201);
    expect((await push(ana, session, "git status")).status).toBe("resolved");
    await ana.api("POST", "/api/grants", {
      body: { effect: "deny", rule: "Bash(git push --force:*)", scope: "all", reason: "Never force" },
    });
    const forced = await push(ana, session, "git push --force");
    expect(forced.status).toBe("resolved");
    expect((await read(ana, session, forced.interactionId)).resolution?.outcome).toBe("denied");
  });

  it("still times out as a denial when only one approval came before the deadline", async () => {
    const ana = new Person("ana.two.deadline@example.com");
    const session = await external(ana);
    const card = await push(ana, session, "git push", 1_000);
    expect((await respond(ana, session, session.token, card.interactionId, "approve")).status).toBe(200);
    await advanceClock(session, { by: 2_000 });
    await runDurableObjectAlarm(stubOf(session));
    expect((await read(ana, session, card.interactionId)).resolution?.outcome).toBe("timed_out");
  });

  it("asks in Parley's own loop even when the permission mode would run the call without asking", async () => {
    const ana = new Person("ana.two.loop@example.com");
    const session = await ana.createSession({
      permissionMode: "bypassPermissions",
      script: [
        toolReply([
          { id: "toolu_deploy", name: "fetch_url", input: { url: "https://deploy.parley.test/go" } },
        ]),
        textReply("Asked."),
      ],
    });
    const device = await ana.connect(session);
    await device.request({ type: "send_message", text: "deploy" });
    const prompt = await device.waitForEvent("approval_required");
    expect(prompt.data).toMatchObject({ toolName: "fetch_url", approvals: { needed: 2, given: 0 } });
    const first = await device.request({ type: "approve", toolCallId: "toolu_deploy" });
    expect(first.ok).toBe(true);
    await device.waitForEvent("approval_counted");
    expect(device.events.some((event) => event.type === "tool_result")).toBe(false);
    const again = await device.request({ type: "approve", toolCallId: "toolu_deploy" });
    expect(again).toMatchObject({ ok: false, error: { code: "already_approved" } });
    device.close();
  });
});
