// A rung that emails: the person's verified address gets the card's summary, Parley's assessment and
// a signed link; opening the link (as mail scanners do) answers nothing, and its Approve answers once.
import { runDurableObjectAlarm } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../../helpers/session-harness";
import { advanceClock, stubOf } from "../../helpers/session-object-probe";
import { emailedCard, outbox, verifiedAddress } from "../email/card-email-fixtures";
import { SENT_WITHIN } from "../email/sent-emails";
import { deliverOutbox, Person } from "../inbox/inbox-fixtures";

type External = { sessionId: string; agentToken: string; token: string };

async function cardStatus(person: Person, session: External, interactionId: string): Promise<string> {
  const response = await person.api(
    "GET",
    `/api/sessions/${session.sessionId}/interactions/${interactionId}`,
    {
      token: session.token,
    },
  );
  return JSON.stringify(await response.json());
}

describe("an escalation by email", () => {
  it("emails the verified address a link that shows the card on GET, answers once on POST, and nothing after", async () => {
    const ana = new Person("ana.escalation.email@example.com");
    const address = "ana.escalation@mail.example";
    await verifiedAddress(ana, address);
    const created = await ana.api("POST", "/api/sessions", {
      body: {
        agent: { kind: "external", name: "Claude Code" },
        deadlinePolicies: { default: { escalate: [{ afterMs: 120_000, notify: ["email"], to: "me" }] } },
      },
    });
    const session = (await created.json()) as External;
    const opened = await ana.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
      token: session.agentToken,
      body: {
        kind: "approval",
        timeoutMs: 600_000,
        request: { toolName: "Bash", input: { command: "rm -rf build" }, risk: "execute" },
      },
    });
    const { interactionId } = (await opened.json()) as { interactionId: string };
    await advanceClock(stubOf(session), { by: 120_000 });
    await runDurableObjectAlarm(stubOf(session));
    await deliverOutbox(session);

    // Sent through the binding once the inbox stored it, with the link signed as it was sent.
    const card = await emailedCard(address);
    expect(card.email.subject).toMatch(/^Still waiting: /);
    expect(card.email.text).toContain("rm -rf build");
    expect(card.email.text).toContain("Parley's assessment:");
    expect(card).toMatchObject({ sessionId: session.sessionId, interactionId, person: ana.email });
    const url = card.link;
    expect(url.startsWith(`${ORIGIN}/api/email/cards/`)).toBe(true);
    // Its text and card are not kept once it is sent.
    await expect
      .poll(async () => (await outbox(ana)).at(-1), SENT_WITHIN)
      .toMatchObject({ address, status: "delivered", text: null, link: null });

    // A scanner opens it, even with a decision in the query: the card stays open.
    for (const opening of [url, `${url}?decision=approve`]) {
      const shown = await exports.default.fetch(opening);
      expect(shown.status).toBe(200);
      expect(await shown.text()).toContain("Approve");
    }
    expect(await cardStatus(ana, session, interactionId)).toContain('"pending"');

    const approve = () =>
      exports.default.fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "decision=approve",
      });
    const first = await approve();
    expect(first.status, await first.clone().text()).toBe(200);
    expect(await cardStatus(ana, session, interactionId)).toContain('"approved"');
    // Used once: the same link answers nothing more.
    const second = await approve();
    expect(second.status).toBeGreaterThanOrEqual(400);

    // A link re-signed by anyone without the secret is refused.
    const forged = `${url.slice(0, -2)}${url.endsWith("AA") ? "BB" : "AA"}`;
    const refused = await exports.default.fetch(forged);
    expect(refused.status).toBe(403);
  });
});
