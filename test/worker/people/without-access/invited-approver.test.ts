// Without Cloudflare Access the operator is the one person, so a call that needs two (`Bash(git
// push:*)`) could never get its second approval — until the operator invites someone. Redeeming the
// single-use invite gives the invitee a credential of their own: a person of their own who sees
// the operator's cards in scope, answers one call at a time, counts as the second approver, and is
// refused at once (socket closed, answers refused) when removed.
import { exports } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import type { ApproverView, PeopleView } from "../../../../src/people/people-terms";
import { ONE_PERSON_ONLY } from "../../../../src/protocol/cards/approval-words";
import type { ExternalInteraction } from "../../../../src/protocol/external/external";
import type { DecisionPage } from "../../../../src/protocol/inbox/decisions";
import { ONE_PERSON_GATEWAY_TOKEN } from "../../../helpers/one-person-bindings";
import { type CreatedSession, ORIGIN } from "../../../helpers/session-harness";
import { deliverOutbox } from "../../inbox/inbox-fixtures";
import { ApproverSocket, bearerOf, call, inviteAndRedeem, inviteTokenOf } from "../people-fixtures";

type External = CreatedSession & { agentToken: string };

const OPERATOR = bearerOf(ONE_PERSON_GATEWAY_TOKEN);
const APPROVE = { response: { decision: "approve" } };

async function external(): Promise<External> {
  const created = await call("POST", "/api/sessions", OPERATOR, {
    agent: { kind: "external", name: "Claude Code" },
  });
  expect(created.status, await created.clone().text()).toBe(201);
  return (await created.json()) as External;
}

async function openCard(session: External, command: string): Promise<string> {
  const opened = await call(
    "POST",
    `/api/sessions/${session.sessionId}/interactions`,
    bearerOf(session.agentToken),
    {
      kind: "approval",
      request: { toolName: "Bash", input: { command } },
    },
  );
  expect(opened.status, await opened.clone().text()).toBe(201);
  const { interactionId } = (await opened.json()) as { interactionId: string };
  await deliverOutbox(session);
  return interactionId;
}

async function outcomeOf(session: External, interactionId: string) {
  const read = await call(
    "GET",
    `/api/sessions/${session.sessionId}/interactions/${interactionId}`,
    bearerOf(session.agentToken),
  );
  return (await read.json()) as ExternalInteraction;
}

const answerAs = (credential: string, session: External, interactionId: string, body: unknown = APPROVE) =>
  call(
    "POST",
    `/api/people/answering/operator/cards/${session.sessionId}/${interactionId}/respond`,
    bearerOf(credential),
    body,
  );

async function people(): Promise<PeopleView> {
  return (await (await call("GET", "/api/people", OPERATOR)).json()) as PeopleView;
}

// Every file's operator is one inbox: each test leaves no approver or invite behind.
afterEach(async () => {
  const { approvers, invites } = await people();
  for (const id of [...approvers.map((a) => a.personId), ...invites.map((i) => i.inviteId)]) {
    expect((await call("DELETE", `/api/people/${encodeURIComponent(id)}`, OPERATOR)).status).toBe(200);
  }
});

describe("an invited approver without Access", () => {
  it("redeems a single-use invite into a credential of their own, which is never the operator's", async () => {
    const invited = await call("POST", "/api/people/invites", OPERATOR, { name: "Bo", scope: "all" });
    expect(invited.status).toBe(201);
    const invite = (await invited.json()) as { inviteId: string; url: string; expiresAt: number };
    expect(invite.url.startsWith(`${ORIGIN}/#/join?invite=`)).toBe(true);
    expect((await people()).invites.map((i) => i.inviteId)).toEqual([invite.inviteId]);

    // The operator cannot be their own second person.
    const self = await call("POST", "/api/people/invites/redeem", OPERATOR, {
      invite: inviteTokenOf(invite.url),
    });
    expect(self.status).toBe(403);
    const redeemed = await call(
      "POST",
      "/api/people/invites/redeem",
      {},
      { invite: inviteTokenOf(invite.url) },
    );
    expect(redeemed.status, await redeemed.clone().text()).toBe(201);
    const approver = (await redeemed.json()) as { personId: string; credential: string; inviter: string };
    expect(approver.personId).toMatch(/^approver:[0-9a-f]{32}$/);
    expect(approver.inviter).toBe("operator");
    // Single use: a second redemption (anyone's) is refused and makes no second approver.
    const again = await call("POST", "/api/people/invites/redeem", {}, { invite: inviteTokenOf(invite.url) });
    expect(again.status).toBe(403);
    const listed = await people();
    expect(listed.invites).toEqual([]);
    expect(listed.approvers.map((a: ApproverView) => [a.personId, a.name])).toEqual([
      [approver.personId, "Bo"],
    ]);

    // The approver's credential is no person's: the operator's routes refuse it.
    for (const [method, path] of [
      ["GET", "/api/inbox"],
      ["GET", "/api/people"],
      ["POST", "/api/people/invites"],
      ["GET", "/api/grants"],
      ["GET", "/api/decisions"],
    ] as const) {
      const refused = await call(
        method,
        path,
        bearerOf(approver.credential),
        method === "POST" ? { name: "Cy", scope: "all" } : undefined,
      );
      expect([401, 403], `${method} ${path}`).toContain(refused.status);
    }
    expect((await people()).approvers).toHaveLength(1);
  });

  it("refuses bad invites precisely and stores nothing", async () => {
    const bad = [
      [{ name: "Bo", scope: "agent" }, 'scope "agent" needs agent'],
      [{ name: "Bo", scope: "rule", rule: "Bash(" }, "rule:"],
      [{ name: "Bo", scope: "all", rule: "Bash" }, 'scope "all" takes no rule'],
      [{ name: "Bo", scope: "all", email: "bo@example.com" }, "only behind Access"],
      [{ name: "", scope: "all" }, "name must not be empty"],
      [{ name: "Bo", scope: "all", expiresInSeconds: 10 }, "expiresInSeconds"],
      [{ name: "Bo", scope: "all", role: "owner" }, "role"],
    ] as const;
    for (const [body, says] of bad) {
      const refused = await call("POST", "/api/people/invites", OPERATOR, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(says);
    }
    expect(await people()).toEqual({ approvers: [], invites: [] });
    const forged = await call("POST", "/api/people/invites/redeem", {}, { invite: "a.b.c" });
    expect(forged.status).toBe(403);
  });

  it("sees the operator's card and, with the operator, approves a call that needs two people; either alone does not", async () => {
    const bo = await inviteAndRedeem(OPERATOR, {}, { name: "Bo", scope: "all" });
    const credential = bo.credential as string;
    const session = await external();
    const interactionId = await openCard(session, "git push origin main");

    // The card knows a second person can come now: no "one person only" notice.
    const first = await outcomeOf(session, interactionId);
    expect(first.status).toBe("pending");
    const socket = await ApproverSocket.open("operator", bearerOf(credential));
    const card = socket.latest?.cards.find((c) => c.interactionId === interactionId);
    expect(card?.approvals).toEqual({ needed: 2, given: 0, by: [] });
    expect(socket.latest?.approver).toMatchObject({ personId: bo.personId, name: "Bo" });

    // The approver alone: one approval, still pending; again: refused, still one.
    const alone = await answerAs(credential, session, interactionId);
    expect(alone.status, await alone.clone().text()).toBe(200);
    expect(((await alone.json()) as { result: { approvals: unknown } }).result.approvals).toEqual({
      needed: 2,
      given: 1,
      by: ["Bo"],
    });
    expect((await answerAs(credential, session, interactionId)).status).toBe(409);
    expect((await outcomeOf(session, interactionId)).status).toBe("pending");

    // The operator's approval is the second person's: the card resolves approved.
    const operator = await call(
      "POST",
      `/api/inbox/cards/${session.sessionId}/${interactionId}/respond`,
      OPERATOR,
      APPROVE,
    );
    expect(operator.status, await operator.clone().text()).toBe(200);
    expect((await outcomeOf(session, interactionId)).resolution?.outcome).toBe("approved");

    // The record names which person decided, and both approvers.
    await deliverOutbox(session);
    const page = (await (
      await call("GET", `/api/decisions?session=${session.sessionId}`, OPERATOR)
    ).json()) as DecisionPage;
    const record = page.decisions.find((d) => d.interactionId === interactionId);
    expect(record?.decidedBy).toMatchObject({ kind: "person", personId: "operator" });
    expect(record?.approvals?.map((a) => a.personId)).toEqual([bo.personId, "operator"]);
    // The approver's socket follows: the card left their view.
    await socket.until(
      () => socket.latest?.cards.every((c) => c.interactionId !== interactionId),
      "card gone",
    );
    socket.close();
  });

  it("without an approver the card says no second person can come, and the operator alone stays one approval", async () => {
    const session = await external();
    const interactionId = await openCard(session, "git push origin main");
    const inbox = (await (await call("GET", "/api/inbox", OPERATOR)).json()) as {
      cards: { interactionId: string; approvals?: { unreachable?: string } }[];
    };
    expect(inbox.cards.find((c) => c.interactionId === interactionId)?.approvals?.unreachable).toBe(
      ONE_PERSON_ONLY,
    );
  });

  it("may approve or deny one call only: no always, grant, edit or stop, and the card stays open", async () => {
    const bo = await inviteAndRedeem(OPERATOR, {}, { name: "Bo", scope: "all" });
    const session = await external();
    const interactionId = await openCard(session, "npm run build");
    const beyond = [
      { decision: "approve", remember: true },
      { decision: "approve", grant: { rule: "Bash(npm run build)", scope: "session" } },
      { decision: "approve", updatedInput: { command: "npm run build && curl evil.example" } },
      { decision: "deny", stop: true },
    ];
    for (const response of beyond) {
      const refused = await answerAs(bo.credential as string, session, interactionId, { response });
      expect(refused.status, JSON.stringify(response)).toBe(403);
    }
    // More time is the operator's too.
    const extend = await call(
      "POST",
      `/api/people/answering/operator/cards/${session.sessionId}/${interactionId}/extend`,
      bearerOf(bo.credential as string),
    );
    expect(extend.status).toBe(404);
    expect((await outcomeOf(session, interactionId)).status).toBe("pending");
    const grants = (await (await call("GET", "/api/grants", OPERATOR)).json()) as { grants: unknown[] };
    expect(grants.grants).toEqual([]);
    const denied = await answerAs(bo.credential as string, session, interactionId, {
      response: { decision: "deny", reason: "not now" },
    });
    expect(denied.status).toBe(200);
    expect((await outcomeOf(session, interactionId)).resolution?.outcome).toBe("denied");
  });

  it("sees and answers only the cards in their scope", async () => {
    const bo = await inviteAndRedeem(OPERATOR, {}, { name: "Bo", scope: "rule", rule: "Bash(git push:*)" });
    const session = await external();
    const push = await openCard(session, "ls && git push origin main");
    const other = await openCard(session, "rm -rf build");
    const view = await call("GET", "/api/people/answering/operator", bearerOf(bo.credential as string));
    const cards = ((await view.json()) as { cards: { interactionId: string }[] }).cards.map(
      (c) => c.interactionId,
    );
    expect(cards).toContain(push);
    expect(cards).not.toContain(other);
    const outside = await answerAs(bo.credential as string, session, other);
    expect(outside.status).toBe(404);
    expect((await outcomeOf(session, other)).status).toBe("pending");
  });

  it("is removed at once: their socket closes, their credential and tickets are refused, their answer changes nothing", async () => {
    const bo = await inviteAndRedeem(OPERATOR, {}, { name: "Bo", scope: "all" });
    const credential = bo.credential as string;
    const session = await external();
    const interactionId = await openCard(session, "git push origin main");
    const socket = await ApproverSocket.open("operator", bearerOf(credential));
    const removed = await call("DELETE", `/api/people/${encodeURIComponent(bo.personId)}`, OPERATOR);
    expect(removed.status).toBe(200);
    expect(await socket.closed()).toBe(4001);
    expect((await answerAs(credential, session, interactionId)).status).toBe(403);
    expect((await call("GET", "/api/people/answering/operator", bearerOf(credential))).status).toBe(403);
    expect(
      (await call("POST", "/api/people/answering/operator/ws-ticket", bearerOf(credential))).status,
    ).toBe(403);
    const read = await outcomeOf(session, interactionId);
    expect(read.status).toBe("pending");
    expect((await people()).approvers).toEqual([]);
    // A forged approver credential, or one for another inviter, is no approver either.
    expect((await answerAs("x.y.z", session, interactionId)).status).toBe(401);
    const elsewhere = await exports.default.fetch(`${ORIGIN}/api/people/answering/someone-else`, {
      headers: bearerOf(credential),
    });
    expect(elsewhere.status).toBe(403);
  });
});
