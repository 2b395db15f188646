// An approver answers from the escalation email they were sent — its link or a reply — as
// themselves: a second person for a rule of APPROVAL_POLICIES that needs two, never the person who
// invited them, once, and nothing more once they are removed.
import { describe, expect, it } from "vitest";
import type { DecisionPage } from "../../../src/protocol/inbox/decisions";
import {
  cardState,
  deliverEmail,
  emailedCard,
  escalatedCard,
  postLink,
  replyMime,
  verifiedAddress,
} from "../email/card-email-fixtures";
import { deliverOutbox, Person } from "../inbox/inbox-fixtures";
import { call, inviteAndRedeem } from "../people/people-fixtures";

/** Ana, who invited Bo (by his Access identity), and a `git push` card (two people) emailed to Bo. */
async function pushEmailedToApprover(tag: string) {
  const ana = new Person(`ana.${tag}@example.com`);
  const bo = new Person(`bo.${tag}@example.com`);
  // Ana's own verified address: the deployment her emails' links point back to.
  await verifiedAddress(ana, `ana.${tag}@mail.example`);
  await inviteAndRedeem(await ana.headers(), await bo.headers(), {
    name: "Bo",
    scope: "all",
    email: bo.email,
  });
  const { session, interactionId } = await escalatedCard(ana, "approvers", "git push origin main");
  const card = await emailedCard(bo.email);
  expect(card.person).toBe(bo.email);
  const inInbox = () =>
    ana.api("POST", `/api/inbox/cards/${session.sessionId}/${interactionId}/respond`, {
      body: { response: { decision: "approve" } },
    });
  return { ana, bo, session, interactionId, card, inInbox };
}

describe("an approver's escalation email", () => {
  it("meets a two-person rule with the person in their inbox and the approver through the email's link", async () => {
    const { ana, bo, session, interactionId, card, inInbox } = await pushEmailedToApprover("link.two");
    expect((await inInbox()).status).toBe(200);
    expect((await cardState(ana, session, interactionId)).status).toBe("pending");
    const posted = await postLink(card.link, "approve");
    expect(posted.status, await posted.clone().text()).toBe(200);
    expect(await cardState(ana, session, interactionId)).toMatchObject({
      status: "resolved",
      resolution: { outcome: "approved" },
    });
    await deliverOutbox(session);
    const page = (await (
      await ana.api("GET", `/api/decisions?session=${session.sessionId}`)
    ).json()) as DecisionPage;
    expect(page.decisions[0]?.approvals?.map((one) => one.personId)).toEqual([ana.email, bo.email]);
  });

  it("meets it with the approver's reply to the email, from the approver's address", async () => {
    const { ana, bo, session, interactionId, card, inInbox } = await pushEmailedToApprover("reply.two");
    expect((await inInbox()).status).toBe(200);
    const to = card.replyTo;
    // Ana replying from Bo's email's address is not Bo: her address is not the one it went to.
    const asAna = deliverEmail(ana.email, to, replyMime({ from: ana.email, to, text: "approve" }));
    expect(await asAna).toBe("Only the address this email went to, while it is verified, answers it");
    expect(await deliverEmail(bo.email, to, replyMime({ from: bo.email, to, text: "approve" }))).toBeNull();
    expect((await cardState(ana, session, interactionId)).resolution?.outcome).toBe("approved");
  });

  it("counts the same approver once, whichever door they use twice", async () => {
    const { ana, bo, session, interactionId, card } = await pushEmailedToApprover("link.twice");
    expect((await postLink(card.link, "approve")).status).toBe(200);
    // The same email's link again, and Bo from his own answering page: still one approval.
    expect((await postLink(card.link, "approve")).status).toBe(403);
    const again = await call(
      "POST",
      `/api/people/answering/${encodeURIComponent(ana.email)}/cards/${session.sessionId}/${interactionId}/respond`,
      await bo.headers(),
      { response: { decision: "approve" } },
    );
    expect(again.status).toBe(409);
    expect(await cardState(ana, session, interactionId)).toMatchObject({ status: "pending" });
  });

  it("answers nothing once the approver is removed, by link or by reply", async () => {
    const { ana, bo, session, interactionId, card } = await pushEmailedToApprover("link.removed");
    expect((await ana.api("DELETE", `/api/people/${encodeURIComponent(bo.email)}`)).status).toBe(200);
    const posted = await postLink(card.link, "approve");
    expect(posted.status).toBe(403);
    expect(await posted.text()).toContain("no longer an approver");
    const to = card.replyTo;
    expect(await deliverEmail(bo.email, to, replyMime({ from: bo.email, to, text: "approve" }))).toBe(
      "Only the address this email went to, while it is verified, answers it",
    );
    expect(await cardState(ana, session, interactionId)).toMatchObject({ status: "pending" });
  });
});
