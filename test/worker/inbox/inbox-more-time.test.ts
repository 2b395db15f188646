// "More time" from the inbox: the card's own session moves the deadline (up to its maximum), every
// device and the inbox see it, answer links may ask and view links may not, another person gets 403.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { MintedInboxLink } from "../../../src/protocol";
import { ORIGIN, textReply } from "../../helpers/session-harness";
import { ask, deliverOutbox, Person } from "./inbox-fixtures";

/** Asked after a minute; each "more time" adds 30 s, up to 100 s after the card opened. */
const POLICIES = { default: { extendByMs: 30_000, maxWaitMs: 100_000 } };

async function sessionWithCard(person: Person, id: string) {
  const session = await person.createSession({
    interactionTimeoutMs: 60_000,
    deadlinePolicies: POLICIES,
    script: [ask(id), textReply("Noted.")],
  });
  const laptop = await person.connect(session);
  await laptop.request({ type: "send_message", text: "Set it up" });
  const prompt = await laptop.waitForEvent("question_prompt");
  await deliverOutbox(session);
  return { session, laptop, prompt };
}

function extendPath(sessionId: string, interactionId: string): string {
  return `/api/inbox/cards/${sessionId}/${interactionId}/extend`;
}

/** A request from a device holding only an inbox link's token. */
function phone(path: string, token: string): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
  });
}

async function mint(person: Person, role: "answer" | "view"): Promise<MintedInboxLink> {
  const response = await person.api("POST", "/api/inbox/links", { body: { role, label: "Phone" } });
  expect(response.status).toBe(201);
  return (await response.json()) as MintedInboxLink;
}

describe("more time from the inbox", () => {
  it("moves the card's deadline on the session's devices and in the inbox, offering the policy's terms", async () => {
    const alice = new Person("alice.inbox-more@example.com");
    const { session, laptop, prompt } = await sessionWithCard(alice, "toolu_inbox_more");
    const maxAt = prompt.data.createdAt + 100_000;
    expect((await alice.inbox()).cards[0]).toMatchObject({
      expiresAt: prompt.data.expiresAt,
      deadlinePolicy: { maxExpiresAt: maxAt, extendByMs: 30_000 },
    });

    const extended = await alice.api("POST", extendPath(session.sessionId, "toolu_inbox_more"));
    expect(extended.status).toBe(200);
    const expiresAt = prompt.data.expiresAt + 30_000;
    expect(await extended.json()).toMatchObject({ ok: true, result: { expiresAt, maxExpiresAt: maxAt } });
    const seen = await laptop.waitForEvent("interaction_extended");
    expect(seen.data).toMatchObject({ expiresAt, extendedBy: "inbox", answeredBy: alice.email });

    await deliverOutbox(session);
    expect((await alice.inbox()).cards).toMatchObject([
      { interactionId: "toolu_inbox_more", expiresAt, deadlinePolicy: { maxExpiresAt: maxAt } },
    ]);
    laptop.close();
  });

  it("stops at the maximum: the last step is cut short, then 400 naming the limit", async () => {
    const alice = new Person("alice.inbox-max@example.com");
    const { session, laptop, prompt } = await sessionWithCard(alice, "toolu_inbox_max");
    const maxAt = prompt.data.createdAt + 100_000;
    const path = extendPath(session.sessionId, "toolu_inbox_max");
    expect((await alice.api("POST", path)).status).toBe(200);
    const cut = await alice.api("POST", path);
    expect(await cut.json()).toMatchObject({ result: { expiresAt: maxAt } });

    const refused = await alice.api("POST", path);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: { code: "deadline_at_maximum", message: expect.stringContaining("toolu_inbox_max") },
    });
    await deliverOutbox(session);
    expect((await alice.inbox()).cards).toMatchObject([{ expiresAt: maxAt }]);
    laptop.close();
  });

  it("may be asked through an answer link, not a view link (403), and never by another person (403)", async () => {
    const alice = new Person("alice.inbox-links-more@example.com");
    const bob = new Person("bob.inbox-more@example.com");
    const { session, laptop, prompt } = await sessionWithCard(alice, "toolu_inbox_who");
    const path = extendPath(session.sessionId, "toolu_inbox_who");

    const viewLink = await mint(alice, "view");
    const asView = await phone(path, viewLink.token);
    expect(asView.status).toBe(403);
    expect(await asView.json()).toMatchObject({ error: { code: "forbidden" } });
    const asBob = await bob.api("POST", path);
    expect(asBob.status).toBe(403);
    expect(await asBob.json()).toMatchObject({ error: { code: "forbidden" } });
    await deliverOutbox(session);
    expect((await alice.inbox()).cards).toMatchObject([{ expiresAt: prompt.data.expiresAt }]);

    const answerLink = await mint(alice, "answer");
    const asPhone = await phone(path, answerLink.token);
    expect(asPhone.status).toBe(200);
    const seen = await laptop.waitForEvent("interaction_extended");
    expect(seen.data.answeredBy).toMatch(/^Phone \(inbox link /);
    expect(laptop.events.filter((event) => event.type === "interaction_extended")).toHaveLength(1);
    laptop.close();
  });

  it("answers 404 for a card or a session that does not exist, changing nothing", async () => {
    const alice = new Person("alice.inbox-unknown@example.com");
    const { session, laptop, prompt } = await sessionWithCard(alice, "toolu_inbox_real");
    const unknownCard = await alice.api("POST", extendPath(session.sessionId, "toolu_nope"));
    expect(unknownCard.status).toBe(404);
    expect(await unknownCard.json()).toMatchObject({ error: { code: "unknown_interaction" } });
    const unknownSession = await alice.api("POST", extendPath("0".repeat(32), "toolu_inbox_real"));
    expect(unknownSession.status).toBe(404);
    expect(await unknownSession.json()).toMatchObject({ error: { code: "unknown_session" } });
    await deliverOutbox(session);
    expect((await alice.inbox()).cards).toMatchObject([{ expiresAt: prompt.data.expiresAt }]);
    laptop.close();
  });
});
