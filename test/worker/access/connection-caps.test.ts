import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_CONNECTIONS_PER_LINK } from "../../../src/protocol/limits";
import { connect, createSession, type Device, ORIGIN } from "../../helpers/session-harness";
import { SseReader } from "../../helpers/sse-reader";
import { expectError, mintLink } from "./access-fixtures";

function openStream(sessionId: string, token: string): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}/api/sessions/${sessionId}/events/stream`, {
    headers: { authorization: `Bearer ${token}` },
  });
}

describe("connections one share link may hold", () => {
  // A test's Worker holds only a few HTTP responses open at once, so the link fills its cap mostly
  // with sockets and the streams are what it opens past it.
  it("refuses a view link's event stream past its cap, counting its sockets and streams together", async () => {
    const session = await createSession();
    const view = await mintLink(session, { role: "view" });
    const sockets: Device[] = [];
    for (let i = 1; i < MAX_CONNECTIONS_PER_LINK; i += 1)
      sockets.push(await connect(session, { token: view.token }));
    const first = await openStream(session.sessionId, view.token);
    expect(first.status).toBe(200);
    const stream = new SseReader(first);
    await stream.until(() => stream.hello !== null, "hello");

    await expectError(await openStream(session.sessionId, view.token), 429, "too_many_sockets");
    // The open stream counts against the link's sockets as well.
    await expect(connect(session, { token: view.token })).rejects.toThrow(/429.*too_many_sockets/);

    // Another link and the owner are not held back by this one.
    const other = await mintLink(session, { role: "view" });
    const otherStream = new SseReader(await openStream(session.sessionId, other.token));
    await otherStream.until(() => otherStream.hello !== null, "hello");
    const owner = await connect(session);

    // A connection closed frees its place.
    sockets.pop()?.close();
    await expect
      .poll(async () => {
        const retry = await openStream(session.sessionId, view.token);
        await retry.body?.cancel();
        return retry.status;
      })
      .toBe(200);

    await stream.close();
    await otherStream.close();
    for (const socket of sockets) socket.close();
    owner.close();
  });
});
