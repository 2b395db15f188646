import { describe, expect, it } from "vitest";
import { api, connect, createSession } from "../../helpers/session-harness";

describe("API security headers", () => {
  it("marks every API answer, errors included, as not to be sniffed, framed or referred", async () => {
    const created = await api("POST", "/api/sessions", { body: {} });
    const session = (await created.json()) as { sessionId: string; token: string };
    const refused = await api("GET", `/api/sessions/${session.sessionId}`, { token: "wrong" });
    for (const response of [created, refused]) {
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
      expect(response.headers.get("content-security-policy")).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
    }
  });

  it("leaves the WebSocket upgrade working", async () => {
    const session = await createSession();
    const device = await connect(session);
    expect(device.hello?.snapshot.sessionId).toBe(session.sessionId);
    device.close();
  });
});
