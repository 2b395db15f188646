// A rung that emails: the person's verified address gets the card's summary, Parley's assessment and
// a signed link; opening the link (as mail scanners do) answers nothing, and its Approve answers once.
import { runDurableObjectAlarm } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { writeCardLink } from "../../../src/email/card-link";
import { CardLinkClaims } from "../../../src/email/email-outbox";
import type { InboxObject } from "../../../src/inbox/inbox-object";
import { runInDurableObject } from "../../helpers/run-in-object";
import { ORIGIN } from "../../helpers/session-harness";
import { advanceClock, stubOf } from "../../helpers/session-object-probe";
import { deliverOutbox, inboxObject, Person } from "../inbox/inbox-fixtures";

type Row = { address: string; subject: string; text: string | null; link: string | null; status: string };
type External = { sessionId: string; agentToken: string; token: string };

async function outbox(person: Person): Promise<Row[]> {
  return runInDurableObject<InboxObject, Row[]>(inboxObject(person.email), (_, state) =>
    state.storage.sql
      .exec<Row>(`SELECT address, subject, text, link, status FROM email_outbox ORDER BY id`)
      .toArray(),
  );
}

async function verifiedAddress(person: Person, address: string): Promise<void> {
  await person.api("POST", "/api/people/me/emails", { body: { address } });
  const code = /Your code: (\d{6})/.exec((await outbox(person)).at(-1)?.text ?? "")?.[1];
  const verified = await person.api("POST", "/api/people/me/emails/verify", { body: { address, code } });
  expect(verified.status).toBe(200);
}

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
    await verifiedAddress(ana, "ana@mail.example");
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

    const email = (await outbox(ana)).at(-1);
    expect(email).toMatchObject({ address: "ana@mail.example", status: "pending" });
    expect(email?.subject).toMatch(/^Still waiting: /);
    expect(email?.text).toContain("rm -rf build");
    expect(email?.text).toContain("Parley's assessment:");
    const claims = CardLinkClaims.parse(JSON.parse(email?.link ?? "null"));
    expect(claims).toMatchObject({
      sessionId: session.sessionId,
      interactionId,
      person: ana.email,
      origin: ORIGIN,
    });

    // The alarm sends it through the binding; its text and card are not kept once sent.
    await runDurableObjectAlarm(inboxObject(ana.email));
    expect((await outbox(ana)).at(-1)).toMatchObject({ status: "delivered", text: null, link: null });

    // The link as the email holds it (signed as it was sent, with the deployment's secret).
    const text = await writeCardLink(env.SESSION_SECRET ?? "", "", claims);
    const url = /Open the card: (\S+)/.exec(text)?.[1] ?? "";
    expect(url.startsWith(`${ORIGIN}/api/email/cards/`)).toBe(true);

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
