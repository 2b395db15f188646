import { describe, expect, it } from "vitest";
import { captureSecurityLog } from "../../helpers/security-log-capture";
import { api, createSession } from "../../helpers/session-harness";
import { createFromAddress, mintLink } from "./access-fixtures";
import { shrinkHttpBudget } from "./command-budget-fixtures";

describe("the security log of limits", () => {
  const { lines, written } = captureSecurityLog();

  it("records HTTP commands over a link's allowance by session and link, never the token", async () => {
    const session = await createSession();
    const link = await mintLink(session, { role: "answer" });
    await shrinkHttpBudget(session.sessionId, 2);
    let status = 0;
    for (let i = 0; i < 3; i++) {
      const response = await api("POST", `/api/sessions/${session.sessionId}/cancel`, {
        token: link.token,
        body: {},
      });
      status = response.status;
      await response.body?.cancel();
    }
    expect(status).toBe(429);
    expect(lines()).toContainEqual(
      expect.objectContaining({
        event: "rate_limited",
        sessionId: session.sessionId,
        linkId: link.linkId,
        reason: "http_commands",
        status: 429,
      }),
    );
    const text = written();
    for (const token of [session.token, link.token]) expect(text).not.toContain(token);
  });

  it("records a refused session creation without the client's address", async () => {
    const ip = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:9::1`;
    let status = 0;
    for (let i = 0; i < 25 && status !== 429; i++) {
      const response = await createFromAddress(ip);
      status = response.status;
      await response.body?.cancel();
    }
    expect(status).toBe(429);
    expect(lines()).toContainEqual(
      expect.objectContaining({ event: "rate_limited", reason: "session_creation", status: 429 }),
    );
    expect(written()).not.toContain(ip);
  });
});
