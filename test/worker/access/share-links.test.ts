import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { SessionObject } from "../../../src/session/session-object";
import { signShareToken } from "../../../src/tokens/share-token";
import { runInDurableObject } from "../../helpers/run-in-object";
import { api, connect, createSession, ORIGIN, textReply } from "../../helpers/session-harness";
import { alarmOf, stubOf } from "../../helpers/session-object-probe";
import { pausedSession, storageFingerprint } from "../session-api/channel-fixtures";
import { expectError, mintLink } from "./access-fixtures";

const SECRET = "test-session-secret-at-least-32-bytes-long";

describe("share links with roles", () => {
  it("lets an answer link read, send messages and connect, but not manage the session", async () => {
    const session = await createSession({ script: [textReply("Hi from the model.")] });
    const link = await mintLink(session, { role: "answer", label: "phone" });
    expect(link).toMatchObject({ role: "answer", label: "phone", expiresAt: null, revokedAt: null });
    expect(link.shareUrl).toBe(`${ORIGIN}/#/s/${session.sessionId}?token=${link.token}`);

    const device = await connect(session, { token: link.token });
    expect(device.hello?.role).toBe("answer");
    const ack = await device.request({ type: "send_message", text: "hello" });
    expect(ack.ok).toBe(true);
    await device.waitForDone();
    const asLink = { token: link.token };
    expect((await api("GET", `/api/sessions/${session.sessionId}`, asLink)).status).toBe(200);

    const path = `/api/sessions/${session.sessionId}`;
    await expectError(await api("POST", `${path}/links`, { ...asLink, body: {} }), 403, "forbidden");
    await expectError(await api("GET", `${path}/links`, asLink), 403, "forbidden");
    await expectError(await api("DELETE", `${path}/links/${link.linkId}`, asLink), 403, "forbidden");
    await expectError(await api("DELETE", path, asLink), 403, "forbidden");
    await expectError(await api("GET", `${path}/export`, asLink), 403, "forbidden");
    await expectError(
      await api("PATCH", path, { ...asLink, body: { permissionMode: "bypassPermissions" } }),
      403,
      "forbidden",
    );
    const modeAck = await device.request({ type: "set_permission_mode", mode: "bypassPermissions" });
    expect(modeAck).toMatchObject({ ok: false, error: { code: "forbidden" } });
    device.close();
  });

  it("keeps a view link to reading: every command it sends is refused and nothing changes", async () => {
    const session = await pausedSession();
    const link = await mintLink(session, { role: "view" });
    const before = await storageFingerprint(session.sessionId);
    const path = `/api/sessions/${session.sessionId}`;
    const asLink = { token: link.token };
    await expectError(
      await api("POST", `${path}/messages`, { ...asLink, body: { text: "hi" } }),
      403,
      "forbidden",
    );
    await expectError(
      await api("POST", `${path}/approve`, { ...asLink, body: { toolCallId: "toolu_pending" } }),
      403,
      "forbidden",
    );
    await expectError(await api("POST", `${path}/cancel`, asLink), 403, "forbidden");

    const viewer = await connect(session, { token: link.token });
    expect(viewer.hello?.role).toBe("view");
    await viewer.waitForEvent("approval_required");
    for (const command of [
      { type: "send_message", text: "hi" },
      { type: "approve", toolCallId: "toolu_pending" },
      { type: "deny", toolCallId: "toolu_pending" },
      { type: "cancel" },
    ]) {
      expect(await viewer.request(command)).toMatchObject({ ok: false, error: { code: "forbidden" } });
    }
    expect(await viewer.request({ type: "resume", after: 0 })).toMatchObject({ ok: true });
    expect(viewer.closed).toBe(false);
    viewer.close();
    // The link's first use is noted (last used), so compare everything else.
    const after = JSON.parse(await storageFingerprint(session.sessionId));
    const expected = JSON.parse(before);
    const withoutLinks = (dump: { meta: Array<{ key: string }> }) => ({
      ...dump,
      meta: dump.meta.filter((row) => row.key !== "share_links"),
    });
    expect(withoutLinks(after)).toEqual(withoutLinks(expected));
    const owner = await connect(session);
    expect(await owner.request({ type: "approve", toolCallId: "toolu_pending" })).toMatchObject({ ok: true });
    owner.close();
  });

  it("lists links with their label and when each was last used", async () => {
    const session = await createSession();
    const used = await mintLink(session, { label: "laptop" });
    const unused = await mintLink(session, { role: "view", expiresInSeconds: 3600 });
    expect((await api("GET", `/api/sessions/${session.sessionId}`, { token: used.token })).status).toBe(200);
    const response = await api("GET", `/api/sessions/${session.sessionId}/links`, { token: session.token });
    const { links } = (await response.json()) as { links: Array<Record<string, unknown>> };
    expect(links).toHaveLength(2);
    expect(links[0]).toMatchObject({ linkId: used.linkId, label: "laptop", role: "answer" });
    expect(links[0]?.lastUsedAt).toEqual(expect.any(Number));
    expect(links[1]).toMatchObject({ linkId: unused.linkId, label: null, role: "view", lastUsedAt: null });
    expect(links[1]?.expiresAt).toBeGreaterThan(Date.now() + 3_500_000);
  });

  it("revoking a link closes its live sockets at once and refuses it everywhere afterwards", async () => {
    const session = await createSession();
    const link = await mintLink(session);
    const other = await mintLink(session);
    const phone = await connect(session, { token: link.token });
    const tablet = await connect(session, { token: other.token });
    const owner = await connect(session);
    const response = await api("DELETE", `/api/sessions/${session.sessionId}/links/${link.linkId}`, {
      token: session.token,
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { revokedAt: number | null }).revokedAt).toEqual(expect.any(Number));
    await phone.until(() => phone.closed, "the revoked link's socket to close");
    expect(phone.closeCode).toBe(4001);
    expect(tablet.closed).toBe(false);
    expect(owner.closed).toBe(false);

    const path = `/api/sessions/${session.sessionId}`;
    await expectError(await api("GET", path, { token: link.token }), 401, "link_revoked");
    await expectError(
      await api("POST", `${path}/messages`, { token: link.token, body: { text: "hi" } }),
      401,
      "link_revoked",
    );
    await expect(connect(session, { token: link.token })).rejects.toThrow(/401.*link_revoked/);
    tablet.close();
    owner.close();
  });

  it("refuses an expired link in the Worker, without waking any session object", async () => {
    // A session that was never created: had the object been asked, it would answer 404.
    const sessionId = "0123456789abcdef0123456789abcdef";
    const claims = { linkId: "f".repeat(32), role: "answer" as const, expiresAt: Date.now() - 2_000 };
    const token = await signShareToken(SECRET, sessionId, claims);
    await expectError(await api("GET", `/api/sessions/${sessionId}`, { token }), 401, "link_expired");
    const fresh = await signShareToken(SECRET, sessionId, { ...claims, expiresAt: Date.now() + 60_000 });
    await expectError(
      await api("GET", `/api/sessions/${sessionId}`, { token: fresh }),
      404,
      "unknown_session",
    );
  });

  it("closes a link's live sockets when it expires, on the session's alarm, and refuses it afterwards", async () => {
    const session = await createSession();
    const link = await mintLink(session, { expiresInSeconds: 60 });
    const phone = await connect(session, { token: link.token });
    const owner = await connect(session);
    expect(await alarmOf(session)).toBe(link.expiresAt);
    // The minute passes: the link's record says so, and the alarm comes.
    await runInDurableObject<SessionObject, void>(stubOf(session), (_instance, state) => {
      const row = state.storage.sql
        .exec<{ value: string }>(`SELECT value FROM meta WHERE key = 'share_links'`)
        .one();
      const links = JSON.parse(row.value).map((l: { expiresAt: number }) => ({
        ...l,
        expiresAt: Date.now() - 1,
      }));
      state.storage.sql.exec(`UPDATE meta SET value = ? WHERE key = 'share_links'`, JSON.stringify(links));
    });
    await runDurableObjectAlarm(stubOf(session));
    await phone.until(() => phone.closed, "the expired link's socket to close");
    expect(phone.closeCode).toBe(4002);
    expect(owner.closed).toBe(false);
    await expectError(
      await api("GET", `/api/sessions/${session.sessionId}`, { token: link.token }),
      401,
      "link_expired",
    );
    // Later alarms find nothing more to enforce.
    expect(await alarmOf(session)).toBeGreaterThan(Date.now() + 28 * 24 * 60 * 60 * 1000);
    owner.close();
  });

  it("refuses tampered links, links of another session and links unknown to the session", async () => {
    const session = await createSession();
    const other = await createSession();
    const link = await mintLink(session, { role: "view" });
    const path = `/api/sessions/${session.sessionId}`;
    const [prefix, payload, signature] = link.token.split(".");
    const claims = JSON.parse(atob((payload ?? "").replaceAll("-", "+").replaceAll("_", "/")));
    const promoted = btoa(JSON.stringify({ ...claims, role: "answer" }))
      .replaceAll("+", "-")
      .replaceAll("/", "_")
      .replace(/=+$/, "");
    for (const token of [
      `${prefix}.${promoted}.${signature}`,
      `${link.token}x`,
      `${link.token}.extra`,
      "s1..",
    ]) {
      await expectError(await api("GET", path, { token }), 403, "forbidden");
    }
    await expectError(
      await api("GET", `/api/sessions/${other.sessionId}`, { token: link.token }),
      403,
      "forbidden",
    );
    // Signed with the right key but never minted by this session (or minted before it was deleted).
    const stray = await signShareToken(SECRET, session.sessionId, {
      linkId: "e".repeat(32),
      role: "answer",
      expiresAt: null,
    });
    await expectError(await api("GET", path, { token: stray }), 401, "link_revoked");
  });

  it("rejects malformed link requests precisely and stores nothing", async () => {
    const session = await createSession();
    const path = `/api/sessions/${session.sessionId}/links`;
    const before = await storageFingerprint(session.sessionId);
    for (const body of [
      { role: "owner" },
      { role: "admin" },
      { expiresInSeconds: -5 },
      { expiresInSeconds: 1.5 },
      { expiresInSeconds: 10 ** 12 },
      { label: "x".repeat(81) },
      { label: 7 },
      { extra: true },
      ["answer"],
    ]) {
      await expectError(await api("POST", path, { token: session.token, body }), 400, "invalid_input");
    }
    await expectError(await api("POST", path, { token: session.token, rawBody: "{" }), 400, "bad_json");
    await expectError(
      await api("DELETE", `${path}/${"a".repeat(32)}`, { token: session.token }),
      404,
      "not_found",
    );
    await expectError(await api("DELETE", `${path}/not-an-id`, { token: session.token }), 404, "not_found");
    expect(await storageFingerprint(session.sessionId)).toBe(before);
  });

  it("keeps the owner's token, minted before share links existed, fully working", async () => {
    const session = await createSession({ script: [textReply("ok")] });
    const device = await connect(session);
    expect(device.hello?.role).toBe("owner");
    expect((await device.request({ type: "set_permission_mode", mode: "plan" })).ok).toBe(true);
    expect(
      (await api("GET", `/api/sessions/${session.sessionId}/links`, { token: session.token })).status,
    ).toBe(200);
    device.close();
  });
});
