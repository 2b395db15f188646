// The inbox acts on a session with the actor's own rights, never as a version-less owner: an answer
// inbox link is refused the owner's decisions as an answer share link is, the person's inbox keeps
// working after an owner-token rotation, revoking an inbox link reaches what it opened whatever
// rotations came since (and says so when it cannot), and the inbox spends buckets of its own.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { MintedInboxLink, OpenedInboxSession } from "../../../src/protocol";
import { type CreatedSession, ORIGIN, textReply, toolReply } from "../../helpers/session-harness";
import { shrinkHttpBudget } from "../access/command-budget-fixtures";
import { ask, deliverOutbox, inboxObject, Person } from "./inbox-fixtures";

const QUESTION = "Which database should the service use?";

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

async function mint(person: Person, role: "answer" | "view", label = "Phone"): Promise<MintedInboxLink> {
  const response = await person.api("POST", "/api/inbox/links", { body: { role, label } });
  expect(response.status).toBe(201);
  return (await response.json()) as MintedInboxLink;
}

async function expectCode(response: Response, status: number, code: string): Promise<void> {
  const body = (await response.json()) as { error?: { code: string } };
  expect({ status: response.status, code: body.error?.code }).toEqual({ status, code });
}

const cardPath = (sessionId: string, id: string, act: "respond" | "extend") =>
  `/api/inbox/cards/${sessionId}/${id}/${act}`;

async function rotate(person: Person, session: CreatedSession, token = session.token): Promise<string> {
  const rotated = await person.api("POST", `/api/sessions/${session.sessionId}/owner-token`, { token });
  expect(rotated.status).toBe(201);
  return ((await rotated.json()) as { token: string }).token;
}

describe("an answer inbox link", () => {
  it("may approve a tool once but not always allow it, exactly as an answer share link", async () => {
    const alice = new Person("alice.remember@example.com");
    const session = await alice.createSession({
      script: [
        toolReply([{ name: "notes_write", id: "toolu_remember", input: { key: "k", text: "v" } }]),
        textReply("Saved."),
      ],
    });
    const laptop = await alice.connect(session);
    await laptop.request({ type: "send_message", text: "save it" });
    await laptop.waitForEvent("approval_required");
    const link = await mint(alice, "answer");
    const path = cardPath(session.sessionId, "toolu_remember", "respond");

    await expectCode(
      await phone("POST", path, link.token, { response: { decision: "approve", remember: true } }),
      403,
      "forbidden",
    );
    expect(laptop.events.some((e) => e.type === "interaction_resolved")).toBe(false);
    const once = await phone("POST", path, link.token, { response: { decision: "approve" } });
    expect(once.status).toBe(200);
    await laptop.waitForDone();
    laptop.close();
  });

  it("may not accept a plan with edits, which only the owner decides", async () => {
    const alice = new Person("alice.plan-edits@example.com");
    const session = await alice.createSession({
      permissionMode: "plan",
      script: [
        toolReply([{ name: "ExitPlanMode", id: "toolu_inbox_plan", input: { plan: "1. Do it." } }]),
        textReply("Ok."),
      ],
    });
    const laptop = await alice.connect(session);
    await laptop.request({ type: "send_message", text: "plan it" });
    await laptop.waitForEvent("interaction_prompt", (e) => e.data.kind === "plan");
    const link = await mint(alice, "answer");
    const path = cardPath(session.sessionId, "toolu_inbox_plan", "respond");
    await expectCode(
      await phone("POST", path, link.token, { response: { choice: "accept_edits" } }),
      403,
      "forbidden",
    );
    // The person in person is the session's owner and may.
    const owner = await alice.api("POST", path, { body: { response: { choice: "accept_edits" } } });
    expect(owner.status).toBe(200);
    await laptop.waitForDone();
    laptop.close();
  });
});

describe("after the owner token is rotated", () => {
  it("the person still answers, gives more time and opens the session from the inbox", async () => {
    const alice = new Person("alice.rotated@example.com");
    const session = await alice.createSession({
      interactionTimeoutMs: 60_000,
      deadlinePolicies: { default: { extendByMs: 30_000, maxWaitMs: 100_000 } },
      script: [ask("toolu_rotated"), textReply("Noted.")],
    });
    const laptop = await alice.connect(session);
    await laptop.request({ type: "send_message", text: "Set it up" });
    await laptop.waitForEvent("question_prompt");
    await deliverOutbox(session);
    const fresh = await rotate(alice, session);
    // The old owner token is retired…
    expect(
      (await alice.api("GET", `/api/sessions/${session.sessionId}`, { token: session.token })).status,
    ).toBe(401);

    // …and the inbox, which never held it, keeps working.
    const extended = await alice.api("POST", cardPath(session.sessionId, "toolu_rotated", "extend"));
    expect(extended.status).toBe(200);
    const opened = await alice.api("POST", `/api/inbox/sessions/${session.sessionId}/open`);
    expect(opened.status).toBe(201);
    const answered = await alice.api("POST", cardPath(session.sessionId, "toolu_rotated", "respond"), {
      body: { response: { answers: { [QUESTION]: "SQLite" } } },
    });
    expect(answered.status).toBe(200);
    // The laptop held the old token, so the rotation closed its socket; the new token reads the log.
    const page = await alice.api("GET", `/api/sessions/${session.sessionId}/events?after=0`, {
      token: fresh,
    });
    const { events } = (await page.json()) as { events: { type: string; data: unknown }[] };
    expect(events.find((e) => e.type === "interaction_resolved")?.data).toMatchObject({
      outcome: "answered",
      answeredBy: alice.email,
    });
    expect(events.find((e) => e.type === "interaction_extended")?.data).toMatchObject({
      answeredBy: alice.email,
    });
    laptop.close();
  });

  it("revoking an inbox link still revokes the share link it opened", async () => {
    const alice = new Person("alice.rotate-revoke@example.com");
    const session = await alice.createSession({ script: [textReply("Hello.")] });
    const link = await mint(alice, "answer");
    const opened = await phone("POST", `/api/inbox/sessions/${session.sessionId}/open`, link.token);
    expect(opened.status).toBe(201);
    const share = (await opened.json()) as OpenedInboxSession;
    // Access signs every request of this deployment; the share link is the credential that matters.
    const snapshot = () => alice.api("GET", `/api/sessions/${session.sessionId}`, { token: share.token });
    expect((await snapshot()).status).toBe(200);

    await rotate(alice, session, await rotate(alice, session));
    const revoked = await alice.api("DELETE", `/api/inbox/links/${link.linkId}`);
    expect(revoked.status).toBe(200);
    await expectCode(await snapshot(), 401, "link_revoked");
  });
});

describe("revoking an inbox link", () => {
  it("answers an error, not 200, when a session it opened refuses the revocation, and revokes the rest", async () => {
    const alice = new Person("alice.revoke-fails@example.com");
    const bob = new Person("bob.revoke-fails@example.com");
    const mine = await alice.createSession({ script: [textReply("Mine.")] });
    const theirs = await bob.createSession({ script: [textReply("Theirs.")] });
    const link = await mint(alice, "answer");
    const opened = await phone("POST", `/api/inbox/sessions/${mine.sessionId}/open`, link.token);
    const share = (await opened.json()) as OpenedInboxSession;
    // A session that refuses to act for Alice stands in for one that cannot revoke the link.
    await inboxObject(alice.email).noteOpened(link.linkId, theirs.sessionId);

    const revoked = await alice.api("DELETE", `/api/inbox/links/${link.linkId}`);
    expect(revoked.status).toBe(500);
    expect(await revoked.json()).toMatchObject({
      error: { code: "internal", message: expect.stringContaining("revoke it again") },
    });
    await expectCode(
      await alice.api("GET", `/api/sessions/${mine.sessionId}`, { token: share.token }),
      401,
      "link_revoked",
    );
    expect((await phone("GET", "/api/inbox", link.token)).status).toBe(403);
  });
});

describe("the inbox's rate limit", () => {
  it("is a bucket of its own: the owner's token spent does not stop the inbox, nor the reverse", async () => {
    const alice = new Person("alice.buckets@example.com");
    const session = await alice.createSession({ script: [textReply("Idle.")] });
    await shrinkHttpBudget(session.sessionId, 2);
    const cancel = () =>
      alice.api("POST", `/api/sessions/${session.sessionId}/cancel`, { token: session.token, body: {} });
    // No card by this id: each attempt is served (404) until its bucket is empty (429).
    const extend = (token?: string) =>
      token
        ? phone("POST", cardPath(session.sessionId, "toolu_absent", "extend"), token)
        : alice.api("POST", cardPath(session.sessionId, "toolu_absent", "extend"));

    for (let i = 0; i < 2; i++) expect((await cancel()).status).toBe(409);
    expect((await cancel()).status).toBe(429);

    for (let i = 0; i < 2; i++) expect((await extend()).status).toBe(404);
    expect((await extend()).status).toBe(429);

    // An inbox link has its own, apart from the person's.
    const link = await mint(alice, "answer");
    expect((await extend(link.token)).status).toBe(404);
  });
});
