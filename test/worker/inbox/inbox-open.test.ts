// Opening a session from the inbox: the person (or their inbox link) gets a share link of one of
// their own sessions, the same one on every open; another person's session is refused; revoking the
// inbox link revokes the share links it opened.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { MintedInboxLink, OpenedInboxSession, ShareLinkView } from "../../../src/protocol";
import { ORIGIN, textReply } from "../../helpers/session-harness";
import { Person } from "./inbox-fixtures";

function withToken(method: string, path: string, token: string): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
}

async function open(person: Person, sessionId: string): Promise<OpenedInboxSession> {
  const response = await person.api("POST", `/api/inbox/sessions/${sessionId}/open`);
  expect(response.status).toBe(201);
  return (await response.json()) as OpenedInboxSession;
}

describe("opening a session from the inbox", () => {
  it("gives the person a link that shows the whole conversation, the same link on every open", async () => {
    const alice = new Person("alice.open@example.com");
    const session = await alice.createSession({ script: [textReply("Hello there.")] });
    const opened = await open(alice, session.sessionId);
    expect(opened.shareUrl).toBe(`${ORIGIN}/#/s/${session.sessionId}?token=${opened.token}`);

    const snapshot = await alice.api("GET", `/api/sessions/${session.sessionId}`, { token: opened.token });
    expect(snapshot.status).toBe(200);
    expect(await snapshot.json()).toMatchObject({ sessionId: session.sessionId });

    await open(alice, session.sessionId);
    const links = await alice.api("GET", `/api/sessions/${session.sessionId}/links`, {
      token: session.token,
    });
    const listed = ((await links.json()) as { links: ShareLinkView[] }).links;
    expect(listed.map((link) => [link.role, link.label])).toEqual([["answer", alice.email]]);
  });

  it("refuses another person's session with 403 and an unknown one with 404", async () => {
    const alice = new Person("alice.mine@example.com");
    const mallory = new Person("mallory.open@example.com");
    const session = await alice.createSession({ script: [textReply("Private.")] });
    const refused = await mallory.api("POST", `/api/inbox/sessions/${session.sessionId}/open`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: "forbidden" } });
    const unknown = await alice.api("POST", `/api/inbox/sessions/${"0".repeat(32)}/open`);
    expect(unknown.status).toBe(404);
  });

  it("opens through an inbox link with the link's role, and revoking the link closes that door too", async () => {
    const bob = new Person("bob.open@example.com");
    const session = await bob.createSession({ script: [textReply("Hi.")] });
    const minted = await bob.api("POST", "/api/inbox/links", { body: { role: "view", label: "Tablet" } });
    const link = (await minted.json()) as MintedInboxLink;

    const response = await withToken("POST", `/api/inbox/sessions/${session.sessionId}/open`, link.token);
    expect(response.status).toBe(201);
    const opened = (await response.json()) as OpenedInboxSession;
    // Behind Access the session's routes still need the person's assertion besides the link.
    const read = await bob.api("GET", `/api/sessions/${session.sessionId}`, { token: opened.token });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ sessionId: session.sessionId });

    expect((await bob.api("DELETE", `/api/inbox/links/${link.linkId}`)).status).toBe(200);
    const after = await bob.api("GET", `/api/sessions/${session.sessionId}`, { token: opened.token });
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ error: { code: "link_revoked" } });
  });
});
