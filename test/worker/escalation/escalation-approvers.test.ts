// A rung to "approvers": each approver with an address (behind Access, their identity's email) gets
// the card's email, whose link answers as that approver, never as the person who invited them.
import { runDurableObjectAlarm } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { DecisionPage } from "../../../src/protocol/inbox/decisions";
import { advanceClock, stubOf } from "../../helpers/session-object-probe";
import { emailedCard, escalatedCard, outbox, verifiedAddress } from "../email/card-email-fixtures";
import { deliverOutbox, Person } from "../inbox/inbox-fixtures";
import { inviteAndRedeem } from "../people/people-fixtures";

type External = { sessionId: string; agentToken: string; token: string };

describe("an escalation to approvers", () => {
  it("emails each approver a link that answers as the approver, never as the person", async () => {
    const ana = new Person("ana.escalates@example.com");
    const bo = new Person("bo.approves@example.com");
    // Ana's own verified address: the deployment her links point back to.
    await verifiedAddress(ana, "ana.escalates@mail.example");
    const redeemed = await inviteAndRedeem(await ana.headers(), await bo.headers(), {
      name: "Bo",
      scope: "all",
      email: bo.email,
    });

    const created = await ana.api("POST", "/api/sessions", {
      body: {
        agent: { kind: "external", name: "Claude Code" },
        deadlinePolicies: {
          default: { escalate: [{ afterMs: 120_000, notify: ["email"], to: "approvers" }] },
        },
      },
    });
    const session = (await created.json()) as External;
    const opened = await ana.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
      token: session.agentToken,
      body: {
        kind: "approval",
        timeoutMs: 600_000,
        request: { toolName: "Bash", input: { command: "make release" } },
      },
    });
    const { interactionId } = (await opened.json()) as { interactionId: string };
    await advanceClock(stubOf(session), { by: 120_000 });
    await runDurableObjectAlarm(stubOf(session));
    await deliverOutbox(session);

    const card = await emailedCard(bo.email);
    expect(card.email.subject).toMatch(/^For ana\.escalates@example\.com: /);
    expect(card.email.text).toContain("$ make release");
    expect(card.person).toBe(redeemed.personId);
    expect(card.person).not.toBe(ana.email);

    // The link answers as Bo, a person of his own, never as Ana.
    const posted = await exports.default.fetch(card.link, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ decision: "approve" }),
    });
    expect(posted.status, await posted.clone().text()).toBe(200);
    await deliverOutbox(session);
    const page = (await (
      await ana.api("GET", `/api/decisions?session=${session.sessionId}`)
    ).json()) as DecisionPage;
    expect(page.decisions).toEqual([
      expect.objectContaining({
        interactionId,
        outcome: "approved",
        decidedBy: expect.objectContaining({ personId: bo.email, label: "Bo" }),
      }),
    ]);
  });

  it("reaches only the approvers whose scope covers the card", async () => {
    const ana = new Person("ana.escalates.scoped@example.com");
    await verifiedAddress(ana, "ana.scoped@mail.example");
    const everything = new Person("bo.scoped.all@example.com");
    const pushes = new Person("cy.scoped.rule@example.com");
    const otherAgent = new Person("di.scoped.agent@example.com");
    const invite = async (who: Person, name: string, scope: Record<string, unknown>) =>
      inviteAndRedeem(await ana.headers(), await who.headers(), { name, email: who.email, ...scope });
    await invite(everything, "Bo", { scope: "all" });
    await invite(pushes, "Cy", { scope: "rule", rule: "Bash(git push:*)" });
    await invite(otherAgent, "Di", { scope: "agent", agent: "Another agent" });

    const addressed = async () => new Set((await outbox(ana)).map((row) => row.address));
    await escalatedCard(ana, "approvers", "git push origin main");
    expect(await addressed()).toEqual(new Set(["ana.scoped@mail.example", everything.email, pushes.email]));
    const before = (await outbox(ana)).length;
    await escalatedCard(ana, "approvers", "make release");
    expect((await outbox(ana)).slice(before).map((row) => row.address)).toEqual([everything.email]);
  });
});
