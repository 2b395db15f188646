import { describe, expect, it } from "vitest";
import { api, connect } from "../../helpers/session-harness";
import { sqlRows } from "../../helpers/session-object-probe";
import { expectError } from "../access/access-fixtures";
import { storageFingerprint } from "../session-api/channel-fixtures";
import { createExternal } from "./external-fixtures";

const uniqueKey = () => `cc-session-${crypto.randomUUID()}`;

describe("an external session", () => {
  it("is created with an owner token and an agent token, and says whose it is in its snapshot and hello", async () => {
    const session = await createExternal({ key: uniqueKey(), title: "Fix the build" });
    expect(session.created).toBe(true);
    expect(session.agentLink).toContain(`#/s/${session.sessionId}?token=${session.agentToken}`);
    const snapshot = await (
      await api("GET", `/api/sessions/${session.sessionId}`, { token: session.token })
    ).json();
    expect(snapshot).toMatchObject({
      agent: { kind: "external", name: "Claude Code", title: "Fix the build" },
    });
    const agent = await connect(session, { token: session.agentToken });
    expect(agent.hello).toMatchObject({ role: "agent", snapshot: { agent: { name: "Claude Code" } } });
    agent.close();
    const links = await (
      await api("GET", `/api/sessions/${session.sessionId}/links`, { token: session.token })
    ).json();
    expect(links).toMatchObject({ links: [{ role: "agent", label: "Claude Code", revokedAt: null }] });
    const [creator] = await sqlRows<{ value: string }>(
      session.sessionId,
      `SELECT value FROM meta WHERE key = 'creator'`,
    );
    expect(creator?.value).toBe(JSON.stringify("operator"));
  });

  it("is found again, with the same agent link, when the same creator creates it with the same key", async () => {
    const key = uniqueKey();
    const first = await createExternal({ key });
    const again = await createExternal({ key }, 200);
    expect(again).toMatchObject({ sessionId: first.sessionId, token: first.token, created: false });
    expect(again.agentToken).toBe(first.agentToken);
    const other = await createExternal({ key: uniqueKey() });
    expect(other.sessionId).not.toBe(first.sessionId);
    const unkeyed = [await createExternal(), await createExternal()];
    expect(unkeyed[0]?.sessionId).not.toBe(unkeyed[1]?.sessionId);
  });

  it("hands out a fresh agent link when the owner revoked the one it had", async () => {
    const key = uniqueKey();
    const first = await createExternal({ key });
    const [link] = (
      (await (await api("GET", `/api/sessions/${first.sessionId}/links`, { token: first.token })).json()) as {
        links: Array<{ linkId: string }>;
      }
    ).links;
    await api("DELETE", `/api/sessions/${first.sessionId}/links/${link?.linkId}`, { token: first.token });
    await expectError(
      await api("GET", `/api/sessions/${first.sessionId}`, { token: first.agentToken }),
      401,
      "link_revoked",
    );
    const again = await createExternal({ key }, 200);
    expect(again.agentToken).not.toBe(first.agentToken);
    expect((await api("GET", `/api/sessions/${first.sessionId}`, { token: again.agentToken })).status).toBe(
      200,
    );
  });

  it("runs no model: a retry of a model call is refused and nothing is stored", async () => {
    const session = await createExternal();
    const before = await storageFingerprint(session.sessionId);
    const sent = await api("POST", `/api/sessions/${session.sessionId}/retry-now`, {
      token: session.token,
      body: {},
    });
    expect(sent.status).toBe(400);
    expect(((await sent.json()) as { error: { message: string } }).error.message).toMatch(
      /Claude Code runs outside Parley/,
    );
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });

  it("is refused with 401 to a caller with no credential, on loopback too: it would be no one's", async () => {
    const refused = await api("POST", "/api/sessions", {
      body: { agent: { kind: "external", name: "Claude Code", key: uniqueKey() } },
    });
    await expectError(refused, 401, "unauthorized");
  });

  it("refuses settings that only a model loop uses, and an agent without a name, creating nothing", async () => {
    const withScript = await api("POST", "/api/sessions", {
      body: { agent: { kind: "external", name: "X" }, systemPrompt: "Be nice" },
    });
    await expectError(withScript, 400, "invalid_input");
    const nameless = await api("POST", "/api/sessions", { body: { agent: { kind: "external", name: " " } } });
    expect(((await nameless.json()) as { error: { message: string } }).error.message).toMatch(/agent\.name/);
    const wrongKind = await api("POST", "/api/sessions", { body: { agent: { kind: "parley", name: "X" } } });
    await expectError(wrongKind, 400, "invalid_input");
  });
});
