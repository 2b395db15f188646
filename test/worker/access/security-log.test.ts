import { describe, expect, it } from "vitest";
import { captureSecurityLog } from "../../helpers/security-log-capture";
import { api, createSession } from "../../helpers/session-harness";
import { mintLink } from "./access-fixtures";

describe("the security log", () => {
  const { lines, written } = captureSecurityLog();

  // Generous: on a loaded machine this file's first session alone can take many seconds.
  it("records refused credentials, revocations and rotations by session and link, never a token", {
    timeout: 90_000,
  }, async () => {
    const session = await createSession();
    const link = await mintLink(session, { role: "answer" });
    const path = `/api/sessions/${session.sessionId}`;
    // Bodies are read, so no response holds one of the test's few connections open.
    // The first character changed, whatever it was: all six of its bits are the token's (the last
    // character's low bits are padding, so "A" and "B" there can decode to the same bytes).
    const wrong = `${session.token.startsWith("A") ? "B" : "A"}${session.token.slice(1)}`;
    await (await api("GET", path, { token: wrong })).text();
    await (await api("DELETE", `${path}/links/${link.linkId}`, { token: session.token })).text();
    await (await api("GET", path, { token: link.token })).text();
    const rotated = (await (await api("POST", `${path}/owner-token`, { token: session.token })).json()) as {
      token: string;
    };

    // Sessions of other test files may log in the same runtime meanwhile; this session's lines are
    // exactly these, in this order.
    expect(lines().filter((line) => line.sessionId === session.sessionId)).toEqual([
      expect.objectContaining({ event: "credential_refused", sessionId: session.sessionId, reason: "wrong" }),
      expect.objectContaining({ event: "link_revoked", sessionId: session.sessionId, linkId: link.linkId }),
      expect.objectContaining({
        event: "credential_refused",
        sessionId: session.sessionId,
        linkId: link.linkId,
        reason: "link_revoked",
      }),
      expect.objectContaining({ event: "owner_token_rotated", sessionId: session.sessionId, linkId: null }),
    ]);
    const text = written();
    for (const token of [session.token, link.token, rotated.token]) expect(text).not.toContain(token);
  });
});
