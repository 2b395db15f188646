// The two-person rule counts people, not credentials (APPROVAL_POLICIES: `Bash(git push:*)` needs
// two): one person who tries every door they hold — the session's API and socket, the terminal, the
// inbox, an inbox link, share links they minted, a service token, a ticket another person asked
// for — gives one approval, and the card still waits; a second Access identity is a second
// approver. Approvals kept before answers named their person count as the session's creator.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { MintedInboxLink } from "../../../src/protocol";
import type { MintedLink } from "../../../src/protocol/access/access";
import type { ExternalInteraction } from "../../../src/protocol/external/external";
import type { SessionObject } from "../../../src/session/session-object";
import { runInDurableObject } from "../../helpers/run-in-object";
import { type CreatedSession, Device, ORIGIN } from "../../helpers/session-harness";
import { stubOf } from "../../helpers/session-object-probe";
import { assertion, deliverOutbox, Person } from "./inbox-fixtures";

type External = CreatedSession & { agentToken: string };

async function external(person: Person): Promise<External> {
  const response = await person.api("POST", "/api/sessions", {
    body: { agent: { kind: "external", name: "Claude Code" } },
  });
  return (await response.json()) as External;
}

async function push(person: Person, session: External): Promise<string> {
  const opened = await person.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
    token: session.agentToken,
    body: { kind: "approval", request: { toolName: "Bash", input: { command: "git push origin main" } } },
  });
  expect(opened.status, await opened.clone().text()).toBe(201);
  return ((await opened.json()) as { interactionId: string }).interactionId;
}

async function status(person: Person, session: External, interactionId: string) {
  const response = await person.api(
    "GET",
    `/api/sessions/${session.sessionId}/interactions/${interactionId}`,
    {
      token: session.agentToken,
    },
  );
  return (await response.json()) as ExternalInteraction;
}

async function answerLink(person: Person, session: External, label: string): Promise<MintedLink> {
  const minted = await person.api("POST", `/api/sessions/${session.sessionId}/links`, {
    token: session.token,
    body: { role: "answer", label },
  });
  expect(minted.status).toBe(201);
  return (await minted.json()) as MintedLink;
}

const APPROVE = { decision: "approve" };

/** An HTTP answer through a session credential, signed in (or not) as `headers` say. */
function respondWith(
  session: External,
  token: string,
  interactionId: string,
  headers: Record<string, string>,
) {
  return exports.default.fetch(`${ORIGIN}/api/sessions/${session.sessionId}/respond`, {
    method: "POST",
    headers: { ...headers, authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ interactionId, response: APPROVE }),
  });
}

describe("approvals are counted by person", () => {
  it("gives one person one approval however many doors they try, and keeps the card waiting", async () => {
    const ana = new Person("ana.doors@example.com");
    const session = await external(ana);
    const own = await answerLink(ana, session, "My phone");
    const spare = await answerLink(ana, session, "My tablet");
    const minted = await ana.api("POST", "/api/inbox/links", { body: { role: "answer", label: "Laptop" } });
    const inboxLink = (await minted.json()) as MintedInboxLink;
    const interactionId = await push(ana, session);

    // The first door: the inbox, as the person.
    const inbox = await ana.api("POST", `/api/inbox/cards/${session.sessionId}/${interactionId}/respond`, {
      body: { response: APPROVE },
    });
    expect(inbox.status, await inbox.clone().text()).toBe(200);

    // Every other door the same person holds is the same person.
    const refusals: { door: string; status: number; body: string }[] = [];
    const tried = async (door: string, response: Response) =>
      refusals.push({ door, status: response.status, body: await response.text() });
    await tried(
      "owner token",
      await ana.api("POST", `/api/sessions/${session.sessionId}/respond`, {
        token: session.token,
        body: { interactionId, response: APPROVE },
      }),
    );
    await tried("own share link", await respondWith(session, own.token, interactionId, await ana.headers()));
    await tried(
      "second share link",
      await respondWith(session, spare.token, interactionId, await ana.headers()),
    );
    // A service token the person made is a machine, never a second person.
    const machine = { "cf-access-jwt-assertion": await assertion({ common_name: "ana-bot.access" }) };
    await tried("service token", await respondWith(session, own.token, interactionId, machine));
    await tried(
      "inbox link",
      await exports.default.fetch(`${ORIGIN}/api/inbox/cards/${session.sessionId}/${interactionId}/respond`, {
        method: "POST",
        headers: { authorization: `Bearer ${inboxLink.token}`, "content-type": "application/json" },
        body: JSON.stringify({ response: APPROVE }),
      }),
    );
    for (const client of ["page", "terminal"]) {
      const device = await ana.connect({ ...session, token: own.token }, { client });
      const answer = await device.request({ type: "respond", interactionId, response: APPROVE });
      refusals.push({
        door: `${client} socket`,
        status: answer.ok ? 200 : 409,
        body: JSON.stringify(answer),
      });
      device.close();
    }
    for (const refusal of refusals) {
      expect(refusal, refusal.door).toMatchObject({ status: 409 });
      expect(refusal.body, refusal.door).toContain("already approved");
    }
    expect(await status(ana, session, interactionId)).toMatchObject({ status: "pending" });
    await deliverOutbox(session);
    const card = (await ana.inbox()).cards.find((shown) => shown.interactionId === interactionId);
    expect(card?.approvals).toEqual({ needed: 2, given: 1, by: [ana.email] });
  });

  it("takes a second Access identity as the second approver, through the link the first one minted", async () => {
    const ana = new Person("ana.two.people@example.com");
    const bo = new Person("bo.two.people@example.com");
    const session = await external(ana);
    const link = await answerLink(ana, session, "Bo");
    const interactionId = await push(ana, session);
    const first = await respondWith(session, link.token, interactionId, await ana.headers());
    expect(first.status).toBe(200);
    expect(await status(ana, session, interactionId)).toMatchObject({ status: "pending" });
    const second = await respondWith(session, link.token, interactionId, await bo.headers());
    expect(second.status, await second.clone().text()).toBe(200);
    expect(await status(ana, session, interactionId)).toMatchObject({
      status: "resolved",
      resolution: { outcome: "approved" },
    });
  });

  it("names a socket by whoever Access signs in when it connects, not by who asked for its ticket, which names no one", async () => {
    const ana = new Person("ana.ticket@example.com");
    const bo = new Person("bo.ticket@example.com");
    const session = await external(ana);
    const link = await answerLink(ana, session, "Shared");
    const interactionId = await push(ana, session);
    expect((await respondWith(session, link.token, interactionId, await ana.headers())).status).toBe(200);
    // Bo asks for a ticket; the ticket, which rides in a URL, carries no one's email.
    const asked = await exports.default.fetch(`${ORIGIN}/api/sessions/${session.sessionId}/ws-ticket`, {
      method: "POST",
      headers: { ...(await bo.headers()), authorization: `Bearer ${link.token}` },
    });
    expect(asked.status).toBe(201);
    const { ticket } = (await asked.json()) as { ticket: string };
    const claims = JSON.parse(atob((ticket.split(".")[1] ?? "").replaceAll("-", "+").replaceAll("_", "/")));
    expect(JSON.stringify(claims)).not.toContain(bo.email);
    // Ana connects with Bo's ticket: the socket is Ana's, who already approved.
    const upgraded = await exports.default.fetch(
      `${ORIGIN}/api/sessions/${session.sessionId}/ws?ticket=${encodeURIComponent(ticket)}`,
      { headers: await ana.headers({ upgrade: "websocket" }) },
    );
    const socket = upgraded.webSocket;
    if (!socket) throw new Error(`no websocket: ${upgraded.status} ${await upgraded.text()}`);
    socket.accept();
    const device = new Device(socket);
    await device.until(() => device.hello, "hello");
    const answer = await device.request({ type: "respond", interactionId, response: APPROVE });
    expect(answer).toMatchObject({ ok: false, error: { code: "already_approved" } });
    device.close();
    expect(await status(ana, session, interactionId)).toMatchObject({ status: "pending" });
  });

  it("counts an approval stored before answers named their person as the session's creator", async () => {
    const ana = new Person("ana.stored@example.com");
    const bo = new Person("bo.stored@example.com");
    const session = await external(ana);
    const link = await answerLink(ana, session, "Bo");
    const interactionId = await push(ana, session);
    // A link's approval as it was kept when approvers were told apart by credential.
    const linkId = "0123456789abcdef0123456789abcdef";
    const stored = [
      {
        key: `link:${linkId}`,
        decider: { kind: "link", label: "Old (share link 01234567)", id: linkId, device: "page" },
        at: 1,
      },
    ];
    await runInDurableObject<SessionObject, void>(stubOf(session), (_, state) => {
      state.storage.sql.exec(
        `UPDATE card_approvals SET approvers = ? WHERE interaction_id = ?`,
        JSON.stringify(stored),
        interactionId,
      );
    });
    const owner = await ana.api("POST", `/api/sessions/${session.sessionId}/respond`, {
      token: session.token,
      body: { interactionId, response: APPROVE },
    });
    expect(owner.status).toBe(409);
    expect(await owner.text()).toContain("You already approved this call");
    expect((await respondWith(session, link.token, interactionId, await bo.headers())).status).toBe(200);
    expect(await status(ana, session, interactionId)).toMatchObject({
      status: "resolved",
      resolution: { outcome: "approved" },
    });
  });
});
