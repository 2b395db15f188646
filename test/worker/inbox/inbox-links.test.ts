// Inbox links: the person hands their inbox to a device without Cloudflare Access (a phone); an
// answer link answers, a view link only reads, revoking ends its streams at once and refuses it.
import { runDurableObjectAlarm } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { MintedInboxLink } from "../../../src/protocol";
import { signInboxLinkToken } from "../../../src/router/credentials/inbox-link-token";
import { runInDurableObject } from "../../helpers/run-in-object";
import { ORIGIN, textReply } from "../../helpers/session-harness";
import { SseReader } from "../../helpers/sse-reader";
import { ask, deliverOutbox, inboxObject, Person } from "./inbox-fixtures";

const QUESTION = "Which database should the service use?";

async function mint(person: Person, body: Record<string, unknown>): Promise<MintedInboxLink> {
  const response = await person.api("POST", "/api/inbox/links", { body });
  expect(response.status).toBe(201);
  return (await response.json()) as MintedInboxLink;
}

/** A request from a device without Access: only the link's token. */
function phone(method: string, path: string, token: string, body?: unknown): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function sessionWithCard(person: Person, id: string) {
  const session = await person.createSession({ script: [ask(id), textReply("Noted.")] });
  const laptop = await person.connect(session);
  await laptop.request({ type: "send_message", text: "Set it up" });
  await laptop.waitForEvent("question_prompt");
  await deliverOutbox(session);
  return { session, laptop };
}

describe("inbox links", () => {
  it("let a phone without Access read the inbox and answer, recorded under the link's label", async () => {
    const alice = new Person("alice.phone@example.com");
    const { session, laptop } = await sessionWithCard(alice, "toolu_phone");
    const link = await mint(alice, { role: "answer", label: "Phone" });
    expect(link).toMatchObject({ role: "answer", label: "Phone", expiresAt: null, revokedAt: null });
    expect(link.inboxUrl).toContain(link.token);

    const view = await phone("GET", "/api/inbox", link.token);
    expect(view.status).toBe(200);
    expect(await view.json()).toMatchObject({
      person: alice.email,
      cards: [{ sessionId: session.sessionId, interactionId: "toolu_phone" }],
    });

    const answered = await phone(
      "POST",
      `/api/inbox/cards/${session.sessionId}/toolu_phone/respond`,
      link.token,
      {
        response: { answers: { [QUESTION]: "Postgres" } },
      },
    );
    expect(answered.status).toBe(200);
    const resolved = await laptop.waitForEvent("interaction_resolved");
    expect(resolved.data.answeredBy).toBe(`Phone (inbox link ${link.linkId.slice(0, 8)})`);
    laptop.close();
  });

  it("of the view role read but may not answer, and no link may mint, list or revoke links", async () => {
    const alice = new Person("alice.viewer@example.com");
    const { session, laptop } = await sessionWithCard(alice, "toolu_viewer");
    const link = await mint(alice, { role: "view", label: "Wall screen" });

    expect((await phone("GET", "/api/inbox", link.token)).status).toBe(200);
    const answer = await phone(
      "POST",
      `/api/inbox/cards/${session.sessionId}/toolu_viewer/respond`,
      link.token,
      {
        response: { answers: { [QUESTION]: "Postgres" } },
      },
    );
    expect(answer.status).toBe(403);
    // Link management needs the person themselves; behind Access a link is no identity there.
    expect((await phone("POST", "/api/inbox/links", link.token, { role: "answer" })).status).toBe(401);
    expect((await phone("GET", "/api/inbox/links", link.token)).status).toBe(401);
    // Nor does a link open any session.
    expect((await phone("GET", `/api/sessions/${session.sessionId}`, link.token)).status).toBe(401);
    expect(laptop.events.some((e) => e.type === "interaction_resolved")).toBe(false);
    laptop.close();
  });

  it("once revoked, close their open stream at once and refuse every later request", async () => {
    const alice = new Person("alice.revoke@example.com");
    const link = await mint(alice, { role: "answer", label: "Lost phone" });
    const stream = new SseReader(
      await exports.default.fetch(`${ORIGIN}/api/inbox/stream?token=${link.token}`),
    );
    await stream.until(() => stream.messages.some((m) => m.event === "hello"), "hello");

    const revoked = await alice.api("DELETE", `/api/inbox/links/${link.linkId}`);
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toMatchObject({ linkId: link.linkId, revokedAt: expect.any(Number) });
    await expect(stream.until(() => false, "the end of the stream")).rejects.toThrow(/stream ended/);

    const later = await phone("GET", "/api/inbox", link.token);
    expect(later.status).toBe(403);
    const reopened = await exports.default.fetch(`${ORIGIN}/api/inbox/stream?token=${link.token}`);
    expect(reopened.status).toBe(403);
    const listed = (await (await alice.api("GET", "/api/inbox/links")).json()) as { links: unknown[] };
    expect(listed.links).toEqual([
      expect.objectContaining({ linkId: link.linkId, revokedAt: expect.any(Number) }),
    ]);
  });

  it("refuse an expired or forged link with 401", async () => {
    const expired = await signInboxLinkToken(env.SESSION_SECRET ?? "", {
      person: "alice.expired@example.com",
      linkId: "a".repeat(32),
      role: "answer",
      label: null,
      expiresAt: Date.now() - 1_000,
    });
    const late = await phone("GET", "/api/inbox", expired);
    expect(late.status).toBe(401);
    expect(await late.json()).toMatchObject({ error: { code: "link_expired" } });

    const forged = await signInboxLinkToken("not-the-server-secret", {
      person: "alice.expired@example.com",
      linkId: "b".repeat(32),
      role: "answer",
      label: null,
      expiresAt: null,
    });
    expect((await phone("GET", "/api/inbox", forged)).status).toBe(401);
  });

  it("refuse a bad mint request naming the field", async () => {
    const alice = new Person("alice.badmint@example.com");
    const response = await alice.api("POST", "/api/inbox/links", { body: { role: "owner" } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { message: expect.stringMatching(/role/) } });
    expect(
      ((await (await alice.api("GET", "/api/inbox/links")).json()) as { links: unknown[] }).links,
    ).toEqual([]);
  });

  it("that expire have their open stream closed by the inbox's alarm, and are refused after", async () => {
    const alice = new Person("alice.expiring@example.com");
    const link = await mint(alice, { role: "view", label: "Borrowed tablet", expiresInSeconds: 3600 });
    expect(link.expiresAt).toBeGreaterThan(Date.now());
    const stream = new SseReader(
      await exports.default.fetch(`${ORIGIN}/api/inbox/stream?token=${link.token}`),
    );
    await stream.until(() => stream.messages.some((m) => m.event === "hello"), "hello");
    const inbox = inboxObject(alice.email);
    expect(await runInDurableObject(inbox, (_, state) => state.storage.getAlarm())).toBe(link.expiresAt);

    // The hour passes (the stored expiry is moved back; the alarm is the inbox's only clock).
    const past = Date.now() - 1_000;
    await runInDurableObject(inbox, (_, state) => {
      state.storage.sql.exec(`UPDATE links SET expires_at = ? WHERE link_id = ?`, past, link.linkId);
    });
    expect(await runDurableObjectAlarm(inbox)).toBe(true);
    await expect(stream.until(() => false, "the end of the stream")).rejects.toThrow(/stream ended/);
    expect((await phone("GET", "/api/inbox", link.token)).status).toBe(403);
  });
});
