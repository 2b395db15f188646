import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { api, createSession } from "../../helpers/session-harness";
import { mintLink } from "./access-fixtures";

describe("the security log", () => {
  let warn: MockInstance<typeof console.warn>;
  beforeEach(() => {
    warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  /** Every structured line written so far, parsed. */
  const lines = () =>
    warn.mock.calls
      .map((call) => String(call[0]))
      .filter((text) => text.startsWith("{"))
      .map((text) => JSON.parse(text) as Record<string, unknown>);

  // Generous: on a loaded machine this file's first session alone can take many seconds.
  it("records refused credentials, revocations and rotations by session and link, never a token", {
    timeout: 90_000,
  }, async () => {
    const session = await createSession();
    const link = await mintLink(session, { role: "answer" });
    const path = `/api/sessions/${session.sessionId}`;
    // Bodies are read, so no response holds one of the test's few connections open.
    // The last character changed, whatever it was (a fixed "A" is no change one time in 64).
    const wrong = `${session.token.slice(0, -1)}${session.token.endsWith("A") ? "B" : "A"}`;
    await (await api("GET", path, { token: wrong })).text();
    await (await api("DELETE", `${path}/links/${link.linkId}`, { token: session.token })).text();
    await (await api("GET", path, { token: link.token })).text();
    const rotated = (await (await api("POST", `${path}/owner-token`, { token: session.token })).json()) as {
      token: string;
    };

    expect(lines()).toEqual([
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
    const written = warn.mock.calls.map((call) => String(call[0])).join("\n");
    for (const token of [session.token, link.token, rotated.token]) expect(written).not.toContain(token);
  });
});
