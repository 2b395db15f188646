import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { OwnerTokenResponse } from "../../../src/protocol/wire/http";
import { api, connect, createSession, ORIGIN } from "../../helpers/session-harness";
import { SseReader } from "../../helpers/sse-reader";
import { expectError, mintLink } from "./access-fixtures";

async function rotate(sessionId: string, token: string): Promise<OwnerTokenResponse> {
  const response = await api("POST", `/api/sessions/${sessionId}/owner-token`, { token });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as OwnerTokenResponse;
}

function openStream(sessionId: string, token: string): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}/api/sessions/${sessionId}/events/stream`, {
    headers: { authorization: `Bearer ${token}` },
  });
}

describe("rotating the owner token", () => {
  it("gives a new token, closes the old token's sockets and streams, and refuses it on every route", async () => {
    const session = await createSession();
    const path = `/api/sessions/${session.sessionId}`;
    const device = await connect(session);
    const stream = new SseReader(await openStream(session.sessionId, session.token));
    await stream.until(() => stream.hello !== null, "hello");

    const rotated = await rotate(session.sessionId, session.token);
    expect(rotated.token).not.toBe(session.token);
    expect(rotated.shareUrl).toBe(`${ORIGIN}/#/s/${session.sessionId}?token=${rotated.token}`);

    await device.until(() => device.closed, "the old token's socket to close");
    expect(device.closeCode).toBe(4001);
    await expect(stream.until(() => false, "the stream to end")).rejects.toThrow(/stream ended/);

    const old = { token: session.token };
    await expectError(await api("GET", path, old), 401, "link_revoked");
    await expectError(await api("GET", `${path}/events`, old), 401, "link_revoked");
    await expectError(
      await api("POST", `${path}/messages`, { ...old, body: { text: "hi" } }),
      401,
      "link_revoked",
    );
    await expectError(await api("GET", `${path}/links`, old), 401, "link_revoked");
    await expectError(await api("POST", `${path}/links`, { ...old, body: {} }), 401, "link_revoked");
    await expectError(await api("GET", `${path}/export`, old), 401, "link_revoked");
    await expectError(await api("GET", `${path}/deliveries`, old), 401, "link_revoked");
    await expectError(await api("POST", `${path}/owner-token`, old), 401, "link_revoked");
    await expectError(await api("DELETE", path, old), 401, "link_revoked");
    await expectError(await openStream(session.sessionId, session.token), 401, "link_revoked");
    await expect(connect(session)).rejects.toThrow(/401/);

    const fresh = await connect(session, { token: rotated.token });
    expect(fresh.hello?.role).toBe("owner");
    expect((await api("GET", path, { token: rotated.token })).status).toBe(200);
    fresh.close();
  });

  it("retires each token in turn, and the first token never comes back", async () => {
    const session = await createSession();
    const second = await rotate(session.sessionId, session.token);
    const third = await rotate(session.sessionId, second.token);
    const path = `/api/sessions/${session.sessionId}`;
    for (const token of [session.token, second.token]) {
      await expectError(await api("GET", path, { token }), 401, "link_revoked");
    }
    expect((await api("GET", path, { token: third.token })).status).toBe(200);
  });

  it("is refused to a share link, and a link keeps working after the owner rotates", async () => {
    const session = await createSession();
    const link = await mintLink(session, { role: "answer" });
    await expectError(
      await api("POST", `/api/sessions/${session.sessionId}/owner-token`, { token: link.token }),
      403,
      "forbidden",
    );
    await rotate(session.sessionId, session.token);
    expect((await api("GET", `/api/sessions/${session.sessionId}`, { token: link.token })).status).toBe(200);
  });

  it("refuses a token whose version was never issued", async () => {
    const session = await createSession();
    const path = `/api/sessions/${session.sessionId}`;
    await expectError(await api("GET", path, { token: `2~${session.token}` }), 403, "forbidden");
    await expectError(await api("GET", path, { token: `1~${session.token}` }), 403, "forbidden");
  });
});
