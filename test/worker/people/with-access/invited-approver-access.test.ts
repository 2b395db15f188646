// Behind Cloudflare Access an invite names the identity that will sign in: only that identity
// redeems it, as themselves (no credential is handed out), and then answers the inviter's cards as
// a second person; any other identity is refused, and removal shuts their socket and their answers.
import { describe, expect, it } from "vitest";
import type { PeopleView } from "../../../../src/people/people-terms";
import type { ExternalInteraction } from "../../../../src/protocol/external/external";
import type { CreatedSession } from "../../../helpers/session-harness";
import { deliverOutbox, Person } from "../../inbox/inbox-fixtures";
import { ApproverSocket, call, inviteAndRedeem, inviteTokenOf } from "../people-fixtures";

type External = CreatedSession & { agentToken: string };

const APPROVE = { response: { decision: "approve" } };

async function pushCard(ana: Person): Promise<{ session: External; interactionId: string }> {
  const created = await ana.api("POST", "/api/sessions", {
    body: { agent: { kind: "external", name: "Claude Code" } },
  });
  const session = (await created.json()) as External;
  const opened = await ana.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
    token: session.agentToken,
    body: { kind: "approval", request: { toolName: "Bash", input: { command: "git push origin main" } } },
  });
  expect(opened.status, await opened.clone().text()).toBe(201);
  await deliverOutbox(session);
  return { session, interactionId: ((await opened.json()) as { interactionId: string }).interactionId };
}

async function outcomeOf(ana: Person, session: External, interactionId: string) {
  const read = await ana.api("GET", `/api/sessions/${session.sessionId}/interactions/${interactionId}`, {
    token: session.agentToken,
  });
  return (await read.json()) as ExternalInteraction;
}

describe("an invited approver behind Access", () => {
  it("is the identity the invite names, signed in as themselves, and with the inviter approves a call that needs two people", async () => {
    const ana = new Person("ana.people@example.com");
    const bo = new Person("bo.people@example.com");
    const cy = new Person("cy.people@example.com");
    // An invite behind Access names who; the inviter is never their own approver.
    expect(
      (await call("POST", "/api/people/invites", await ana.headers(), { name: "Bo", scope: "all" })).status,
    ).toBe(400);
    const self = await call("POST", "/api/people/invites", await ana.headers(), {
      name: "Me",
      scope: "all",
      email: ana.email,
    });
    expect(self.status).toBe(400);

    const invited = await call("POST", "/api/people/invites", await ana.headers(), {
      name: "Bo",
      scope: "all",
      email: bo.email,
    });
    expect(invited.status).toBe(201);
    const { url } = (await invited.json()) as { url: string };
    // Another identity holding the URL redeems nothing.
    const stolen = await call("POST", "/api/people/invites/redeem", await cy.headers(), {
      invite: inviteTokenOf(url),
    });
    expect(stolen.status).toBe(403);
    const redeemed = await call("POST", "/api/people/invites/redeem", await bo.headers(), {
      invite: inviteTokenOf(url),
    });
    expect(redeemed.status, await redeemed.clone().text()).toBe(201);
    expect(await redeemed.json()).toMatchObject({ inviter: ana.email, personId: bo.email, credential: null });
    const people = (await (await ana.api("GET", "/api/people")).json()) as PeopleView;
    expect(people.approvers.map((a) => [a.personId, a.email])).toEqual([[bo.email, bo.email]]);

    const { session, interactionId } = await pushCard(ana);
    const path = `/api/people/answering/${encodeURIComponent(ana.email)}`;
    const socket = await ApproverSocket.open(ana.email, await bo.headers(), await bo.headers());
    expect(socket.latest?.cards.map((c) => c.interactionId)).toContain(interactionId);
    // Cy was never invited: nothing of Ana's is shown or answered.
    expect((await call("GET", path, await cy.headers())).status).toBe(403);
    const cyAnswer = await call(
      "POST",
      `${path}/cards/${session.sessionId}/${interactionId}/respond`,
      await cy.headers(),
      APPROVE,
    );
    expect(cyAnswer.status).toBe(403);

    const boAnswer = await call(
      "POST",
      `${path}/cards/${session.sessionId}/${interactionId}/respond`,
      await bo.headers(),
      APPROVE,
    );
    expect(boAnswer.status, await boAnswer.clone().text()).toBe(200);
    expect((await outcomeOf(ana, session, interactionId)).status).toBe("pending");
    const anaAnswer = await ana.api(
      "POST",
      `/api/inbox/cards/${session.sessionId}/${interactionId}/respond`,
      { body: APPROVE },
    );
    expect(anaAnswer.status, await anaAnswer.clone().text()).toBe(200);
    const resolved = await outcomeOf(ana, session, interactionId);
    expect(resolved.resolution?.outcome).toBe("approved");
    socket.close();
  });

  it("is removed at once: their socket closes and their next answer is refused", async () => {
    const ana = new Person("ana.removes@example.com");
    const bo = new Person("bo.removed@example.com");
    await inviteAndRedeem(await ana.headers(), await bo.headers(), {
      name: "Bo",
      scope: "all",
      email: bo.email,
    });
    const { session, interactionId } = await pushCard(ana);
    const socket = await ApproverSocket.open(ana.email, await bo.headers(), await bo.headers());
    const removed = await ana.api("DELETE", `/api/people/${encodeURIComponent(bo.email)}`);
    expect(removed.status).toBe(200);
    expect(await socket.closed()).toBe(4001);
    const path = `/api/people/answering/${encodeURIComponent(ana.email)}`;
    const late = await call(
      "POST",
      `${path}/cards/${session.sessionId}/${interactionId}/respond`,
      await bo.headers(),
      APPROVE,
    );
    expect(late.status).toBe(403);
    expect((await outcomeOf(ana, session, interactionId)).status).toBe("pending");
  });
});
